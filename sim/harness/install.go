package harness

import (
	"context"
	"fmt"
	"io"

	"github.com/kueue-sim/kueue-sim/sim/tools"
)

// installTools builds the control-plane binaries missing from the binary
// folder (WithInstallTools), writing the build's output to out.
func installTools(ctx context.Context, out io.Writer) error {
	sel, err := tools.Select(nil, false)
	if err != nil {
		return err
	}
	in, err := tools.Default(tools.WithOutput(out))
	if err != nil {
		return err
	}
	if err := in.Install(ctx, sel); err != nil {
		return fmt.Errorf("installing the control-plane binaries: %w", err)
	}
	return nil
}
