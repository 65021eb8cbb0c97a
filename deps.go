//go:build tools

package replaylab

import (
	_ "github.com/klauspost/compress/zstd"
	_ "github.com/mattn/go-sqlite3"
	_ "github.com/spf13/cobra"
)
