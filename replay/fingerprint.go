package replay

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/replaylab/replaylab/sim"
)

// fingerprintScheme starts every fingerprinted byte stream, so that a
// later change of what is digested can never give an old fingerprint.
const fingerprintScheme = "replaylab fingerprint 1\n"

// Fingerprint returns the fingerprint of the external bot that argv starts
// (StartProcess, from the working directory): the lower-case hex SHA-256
// of its command line and of the content of every file the command line
// names. The program, argv[0], is looked up on PATH as StartProcess looks
// it up, and every later argument that names an existing regular file is
// read too: in "python3 bot.py" or "java -jar bot.jar" the script or jar
// is the bot, and a user who edits it expects a different bot. The
// interpreter counts as well, since another Python may play differently.
// What the program loads by itself (imports, a directory on a class path)
// is not read; such a bot needs a new version by hand when that changes.
func Fingerprint(argv []string) (string, error) { return FingerprintProtocol("", argv) }

// FingerprintProtocol is Fingerprint for a bot that argv starts and that
// speaks protocol (an adapter's name: "codenjoy", "awap2019"), so the same
// program behind two protocols gives two fingerprints. The empty protocol
// is our JSON lines, whose fingerprint is Fingerprint's.
func FingerprintProtocol(protocol string, argv []string) (string, error) {
	return FingerprintProtocolIn(protocol, "", argv)
}

// FingerprintProtocolIn is FingerprintProtocol for a bot started in the
// working directory dir ("" = the recorder's): relative paths, the
// program's included when it has a slash, are looked up from there.
func FingerprintProtocolIn(protocol, dir string, argv []string) (string, error) {
	if len(argv) == 0 {
		return "", errors.New("empty bot command")
	}
	h := sha256.New()
	io.WriteString(h, fingerprintScheme)
	if protocol != "" {
		io.WriteString(h, "protocol "+protocol+"\n")
	}
	in := func(path string) string {
		if dir == "" || filepath.IsAbs(path) {
			return path
		}
		return filepath.Join(dir, path)
	}
	name := argv[0]
	if strings.Contains(name, "/") {
		name = in(name)
	}
	program, err := exec.LookPath(name)
	if err != nil {
		return "", err
	}
	for i, arg := range argv {
		// Each argument is length-prefixed and followed by its file's
		// digest or a zero byte, so no two command lines digest alike.
		h.Write(binary.AppendUvarint(nil, uint64(len(arg))))
		io.WriteString(h, arg)
		path := in(arg)
		if i == 0 {
			path = program
		} else if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
			h.Write([]byte{0})
			continue
		}
		sum, err := fileDigest(path)
		if err != nil {
			return "", fmt.Errorf("fingerprint %s: %w", arg, err)
		}
		h.Write([]byte{1})
		h.Write(sum)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// fileDigest returns the SHA-256 of a file's content.
func fileDigest(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// ShortFingerprint is how messages and pages show a fingerprint: its
// first 12 bytes (of a hex digest, enough to tell versions apart by eye),
// cut on a character boundary since a harness may write any text.
func ShortFingerprint(fp string) string { return sim.Clip(fp, 12) }
