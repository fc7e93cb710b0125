package main

import (
	"fmt"
	"os"
	"syscall"

	"github.com/kueue-sim/kueue-sim/kueuerelease"
	"github.com/kueue-sim/kueue-sim/sim/assets"
)

// execKueueRelease hands the command over to the sim that runs Kueue
// release want, when that is not this one: a process holds one Kueue, so
// another release is another binary (assets.KueueRelease). That sim gets
// the same arguments and environment, and since it runs want, it goes on
// where this one returns nil.
func execKueueRelease(want string) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding this sim: %w", err)
	}
	other, err := assets.KueueRelease(want, kueuerelease.Compiled(), self)
	if err != nil || other == "" {
		return err
	}
	if err := syscall.Exec(other, append([]string{other}, os.Args[1:]...), os.Environ()); err != nil {
		return fmt.Errorf("running %s: %w", other, err)
	}
	return nil
}
