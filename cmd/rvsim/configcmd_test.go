package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rvsim/rvsim/config"
)

func TestConfigCmd(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.toml")
	require.NoError(t, os.WriteFile(good, []byte("preset = \"hpp\"\n[core]\nrob = 64\n"), 0o644))
	bad := filepath.Join(dir, "bad.toml")
	require.NoError(t, os.WriteFile(bad, []byte("[core]\nrob = 64\nrobb = 1\n"), 0o644))
	runCmdCases(t, configCmd, true, []cmdCase{
		{desc: "list names every preset", args: []string{"list"}, out: "hpp  "},
		{desc: "show a preset", args: []string{"show", "hps"}, out: `preset = "hps"`},
		{desc: "show defaults to default", args: []string{"show"}, out: `preset = "default"`},
		{desc: "show an unknown preset", args: []string{"show", "x86"}, status: 2, err: `unknown preset "x86"`},
		{desc: "show takes one preset", args: []string{"show", "a", "b"}, status: 2, err: "at most one", usageError: true},
		{desc: "check a good file", args: []string{"check", good}, out: "good.toml: ok"},
		{desc: "check a bad file", args: []string{"check", bad}, status: 1, err: "bad.toml:3: core.robb: unknown key"},
		{desc: "check needs a file", args: []string{"check"}, status: 2, err: "want one FILE", usageError: true},
		{desc: "unknown subcommand", args: []string{"edit"}, status: 2, err: `unknown subcommand "edit"`, usageError: true},
		{desc: "help", args: []string{"help"}, out: "rvsim config show"},
	})
	// No arguments: the help goes to stderr with status 2.
	var stdout, stderr bytes.Buffer
	status, err := configCmd(nil, &stdout, &stderr)
	assert.NoError(t, err)
	assert.Equal(t, 2, status)
	assert.Contains(t, stderr.String(), "rvsim config list")
}

// TestConfigShowIsEditable: the printed file, edited, is a valid config.
func TestConfigShowIsEditable(t *testing.T) {
	var out bytes.Buffer
	_, err := configCmd([]string{"show", "stratified"}, &out, &out)
	require.NoError(t, err)
	edited := strings.Replace(out.String(), "rob = 64", "rob = 96", 1)
	p := filepath.Join(t.TempDir(), "e.toml")
	require.NoError(t, os.WriteFile(p, []byte(edited), 0o644))
	m, err := config.Load(p)
	require.NoError(t, err)
	assert.Equal(t, 96, m.Core.ROB)
	assert.Equal(t, "gshare", m.BPred.Kind)
}
