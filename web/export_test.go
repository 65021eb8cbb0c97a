package web

import (
	"encoding/csv"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/labstack/echo/v4"
)

func TestCSVCell(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"tactical", "tactical"},
		{"=HYPERLINK(\"http://x\",\"y\")", "'=HYPERLINK(\"http://x\",\"y\")"},
		{"+1+2", "'+1+2"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\tcmd", "'\tcmd"},
		{"\rcmd", "'\rcmd"},
		{"-Inf", "'-Inf"},
		{"a=1", "a=1"},
		{"-1.5", "-1.5"},
		{"+3", "+3"},
		{"-2.5e-07", "-2.5e-07"},
		{"1e+21", "1e+21"},
	} {
		if got := csvCell(tc.in); got != tc.want {
			t.Errorf("csvCell(%q): got %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestSendCSV checks that every cell of an answer is guarded, numbers
// are left as they are, and the rows handed in are not changed.
func TestSendCSV(t *testing.T) {
	header := []string{"name", "rating"}
	rows := [][]string{header, {"=cmd|' /C calc'!A0", "-12.5"}, {"@bot", "3"}}
	rec := httptest.NewRecorder()
	c := echo.New().NewContext(httptest.NewRequest(http.MethodGet, "/", nil), rec)
	if err := sendCSV(c, "t.csv", rows); err != nil {
		t.Fatal(err)
	}
	got, err := csv.NewReader(rec.Body).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{header, {"'=cmd|' /C calc'!A0", "-12.5"}, {"'@bot", "3"}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("got rows %q, want %q", got, want)
	}
	if rows[1][0] != "=cmd|' /C calc'!A0" {
		t.Errorf("got input cell changed to %q, want it as it was", rows[1][0])
	}
	if got := rec.Header().Get(echo.HeaderContentDisposition); got != `attachment; filename="t.csv"` {
		t.Errorf("got Content-Disposition %q, want the file name", got)
	}
}
