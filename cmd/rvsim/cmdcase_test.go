package main

import (
	"bytes"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cmdCase is one row of a subcommand's table test: its arguments, the
// exit status, substrings of stdout and of the error, and whether the
// error is a usage error.
type cmdCase struct {
	desc       string
	args       []string
	status     int
	out, err   string
	usageError bool
}

// runCmdCases runs cmd on every case. Errors are one line; checkUsage
// also checks that usage errors are told apart.
func runCmdCases(t *testing.T, cmd func([]string, io.Writer, io.Writer) (int, error), checkUsage bool, cases []cmdCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.desc, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status, err := cmd(tc.args, &stdout, &stderr)
			assert.Equal(t, tc.status, status)
			if tc.err == "" {
				require.NoError(t, err)
			} else {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				assert.NotContains(t, err.Error(), "\n")
				if checkUsage {
					_, isUsage := err.(*usageError)
					assert.Equal(t, tc.usageError, isUsage)
				}
			}
			assert.Contains(t, stdout.String(), tc.out)
		})
	}
}
