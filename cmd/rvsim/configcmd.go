package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/rvsim/rvsim/config"
)

const configHelp = `Usage:
  rvsim config list            the timing-model presets, with their sources
  rvsim config show [PRESET]   print a preset (default: default) as a commented file to edit
  rvsim config check FILE      check a configuration file; print its errors or "ok"
`

// configCmd implements `rvsim config`: the timing model's machine
// configurations (package config).
func configCmd(args []string, stdout, stderr io.Writer) (int, error) {
	if len(args) == 0 {
		fmt.Fprint(stderr, configHelp)
		return 2, nil
	}
	sub, rest := args[0], args[1:]
	for _, a := range rest {
		if a == "-h" || a == "-help" || a == "--help" {
			fmt.Fprint(stdout, configHelp)
			return 0, nil
		}
	}
	switch sub {
	case "list":
		if len(rest) != 0 {
			return 2, &usageError{"config list: takes no arguments"}
		}
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		for _, n := range config.Presets() {
			fmt.Fprintf(tw, "%s\t%s\n", n, config.PresetTitle(n))
		}
		tw.Flush()
	case "show":
		name := "default"
		switch len(rest) {
		case 0:
		case 1:
			name = rest[0]
		default:
			return 2, &usageError{"config show: at most one PRESET (try 'rvsim config list')"}
		}
		text, err := config.Show(name)
		if err != nil {
			return 2, err
		}
		fmt.Fprint(stdout, text)
	case "check":
		if len(rest) != 1 {
			return 2, &usageError{"config check: want one FILE"}
		}
		if _, err := config.Load(rest[0]); err != nil {
			return 1, err
		}
		fmt.Fprintf(stdout, "%s: ok\n", rest[0])
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, configHelp)
	default:
		return 2, &usageError{fmt.Sprintf("config: unknown subcommand %q (list, show, check)", sub)}
	}
	return 0, nil
}
