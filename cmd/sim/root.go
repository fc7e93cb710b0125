package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/go-logr/logr"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	"go.uber.org/zap/zapcore"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
)

// envPrefix prefixes the environment variables that set flags:
// --write-kubeconfig is KUEUESIM_WRITE_KUBECONFIG.
const envPrefix = "KUEUESIM"

type globalFlags struct {
	configFile string
	verbosity  int
}

func newRootCmd() *cobra.Command {
	g := &globalFlags{}
	v := viper.New()
	root := &cobra.Command{
		Use:   "sim",
		Short: "kueue-sim: a cluster simulator and scheduling test harness for Kueue",
		Long: `kueue-sim runs a real Kubernetes control plane (kube-apiserver, etcd,
kube-scheduler, kube-controller-manager) with a real, in-process Kueue on one
machine, and replays scenarios of GPU node pools, queues and workloads on it.

Every flag can also be set with an environment variable (KUEUESIM_ and the
flag name in capitals with - as _, e.g. KUEUESIM_WRITE_KUBECONFIG) or in a
config file (--config, YAML keys named as the flags). Flags win over the
environment, which wins over the file.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if err := loadConfig(cmd, v, g.configFile); err != nil {
				return withExitCode(2, err)
			}
			setupLogging(g.verbosity)
			return nil
		},
	}
	root.PersistentFlags().StringVar(&g.configFile, "config", "", "config file (YAML) with flag values")
	root.PersistentFlags().IntVarP(&g.verbosity, "verbosity", "v", 0,
		"logs of the in-process controllers (Kueue, kueue-sim's): 0 none, 1 errors (including transient ones they retry), 2 info, 3 debug (logr V(1)), each level above one V level more (5: Kueue's V(3), its queue ordering)")
	root.AddCommand(newUpCmd(), newRunCmd(), newValidateCmd(), newVersionCmd())
	root.AddCommand(newLintCmd(), newServeCmd())
	root.AddCommand(newReportCmd(), newCompareCmd(), newPlanCmd(), newUpgradeCmd(), newForecastCmd())
	root.AddCommand(newImportCmd(), newToolsCmd())
	root.AddCommand(newKueueDefaultsCmd())
	return root
}

// loadConfig applies the config file and KUEUESIM_* variables to every flag
// of cmd that was not set on the command line.
func loadConfig(cmd *cobra.Command, v *viper.Viper, file string) error {
	v.SetEnvPrefix(envPrefix)
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_"))
	v.AutomaticEnv()
	if file != "" {
		v.SetConfigFile(file)
		if err := v.ReadInConfig(); err != nil {
			return fmt.Errorf("reading config file %s: %w", file, err)
		}
	}
	var errs []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Changed || f.Name == "config" || !v.IsSet(f.Name) {
			return
		}
		val := v.Get(f.Name)
		s := fmt.Sprint(val)
		if list, ok := val.([]any); ok {
			parts := make([]string, len(list))
			for i, x := range list {
				parts[i] = fmt.Sprint(x)
			}
			s = strings.Join(parts, ",")
		}
		if err := cmd.Flags().Set(f.Name, s); err != nil {
			errs = append(errs, fmt.Sprintf("%s (from %s or the config file): %v",
				f.Name, envPrefix+"_"+strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_")), err))
		}
	})
	if len(errs) > 0 {
		return fmt.Errorf("invalid settings: %s", strings.Join(errs, "; "))
	}
	return nil
}

func setupLogging(verbosity int) {
	if verbosity <= 0 {
		ctrl.SetLogger(logr.Discard())
		return
	}
	level := zapcore.ErrorLevel
	switch {
	case verbosity == 2:
		level = zapcore.InfoLevel
	case verbosity >= 3:
		level = zapcore.Level(2 - verbosity) // 3 is zap's Debug (logr V(1)), 4 is V(2), ...
	}
	ctrl.SetLogger(zap.New(zap.WriteTo(os.Stderr), zap.Level(level)))
}
