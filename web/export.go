package web

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
)

// tableFormat reads ?format= of an API table: json (the default) or csv.
func tableFormat(c echo.Context) (string, error) {
	switch f := c.QueryParam("format"); f {
	case "", "json":
		return "json", nil
	case "csv":
		return "csv", nil
	default:
		return "", badInput("format %q: want json or csv", f)
	}
}

// sendCSV answers with rows (a header row first) as a CSV file to save
// under name, every cell passed through csvCell.
func sendCSV(c echo.Context, name string, rows [][]string) error {
	res := c.Response()
	res.Header().Set(echo.HeaderContentType, "text/csv; charset=utf-8")
	attachment(c, name)
	res.WriteHeader(http.StatusOK)
	w := csv.NewWriter(res)
	var guarded []string // rows may share a header slice: guard a copy
	for _, row := range rows {
		guarded = guarded[:0]
		for _, cell := range row {
			guarded = append(guarded, csvCell(cell))
		}
		if err := w.Write(guarded); err != nil {
			return writeFailed(err)
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return writeFailed(err)
	}
	return nil
}

// writeFailed is the error of an answer that could not be written: its
// status is sent, so the client went away mid-answer.
func writeFailed(err error) error { return &abortError{fmt.Errorf("write csv: %w", err)} }

// formulaStart holds the first characters that make a spreadsheet read a
// cell as a formula (OWASP's list), and decimal the numbers the tables
// write, which start with a sign and are no formula.
var (
	formulaStart = "=+-@\t\r"
	decimal      = regexp.MustCompile(`^[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)
)

// csvCell guards a cell against formula injection: bot names, versions
// and notes are anyone's text, and a spreadsheet that opens the file runs
// a cell such as =HYPERLINK(...) as a formula. A leading ' makes it text.
func csvCell(s string) string {
	if s == "" || !strings.ContainsRune(formulaStart, rune(s[0])) || decimal.MatchString(s) {
		return s
	}
	return "'" + s
}

// formatFloat writes a number for CSV with every digit, as JSON does.
func formatFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
