package web

import (
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/replaylab/replaylab/sim"
)

// compareTables are the CSV tables of a comparison, by name: a header and
// the rows of one comparison.
var compareTables = map[string]func(cmp comparison) [][]string{
	"summary": summaryRows,
	"pairs":   pairRows,
	"finals":  finalRows,
	"curves":  curveRows,
}

// apiCompare answers a comparison as JSON, or with format=csv one of its
// tables (table=summary, pairs, finals or curves).
func (s *server) apiCompare(c echo.Context) error {
	format, err := tableFormat(c)
	if err != nil {
		return err
	}
	name := c.QueryParam("table")
	table, ok := compareTables[name]
	if format == "csv" && !ok {
		return badInput("table %q: want summary, pairs, finals or curves", name)
	}
	_, cmp, err := s.comparison(c)
	if err != nil {
		return err
	}
	if format == "json" {
		return c.JSON(http.StatusOK, cmp)
	}
	return sendCSV(c, "compare-"+name+".csv", table(cmp))
}

// cell formats a number for CSV: empty when missing or not finite.
func cell(n *number) string {
	if n == nil || math.IsNaN(float64(*n)) || math.IsInf(float64(*n), 0) {
		return ""
	}
	return formatFloat(float64(*n))
}

// estimateRow is a summary row of an estimate.
func estimateRow(quantity string, e estimate) []string {
	row := []string{quantity, cell(e.Value), "", "", e.Note}
	if e.CI != nil {
		row[2], row[3] = cell(&e.CI[0]), cell(&e.CI[1])
	}
	return row
}

func summaryRows(cmp comparison) [][]string {
	rows := [][]string{{"quantity", "value", "ci95_low", "ci95_high", "note"}}
	for _, side := range []struct {
		key string
		s   compareSide
	}{{"a", cmp.A}, {"b", cmp.B}} {
		count := func(what string, n int) []string {
			return []string{side.key + "_" + what, strconv.Itoa(n), "", "", ""}
		}
		rows = append(rows,
			[]string{side.key + "_bot", "", "", "", side.s.Name + " " + side.s.Version},
			count("matches", side.s.Matches), count("wins", side.s.Wins), count("draws", side.s.Draws), count("losses", side.s.Losses),
			estimateRow(side.key+"_win_rate", estimate{Value: side.s.WinRate, CI: side.s.WinCI}))
	}
	p := cmp.Paired
	needed := ""
	if p.PairsNeeded != nil {
		needed = strconv.Itoa(*p.PairsNeeded)
	}
	return append(rows,
		estimateRow("win_rate_difference", cmp.WinRateDiff),
		estimateRow("rating_difference", cmp.RatingDiff),
		[]string{"pairs", strconv.Itoa(p.Pairs), "", "", ""},
		[]string{"pairs_a_better", strconv.Itoa(p.ABetter), "", "", ""},
		[]string{"pairs_b_better", strconv.Itoa(p.BBetter), "", "", ""},
		[]string{"pairs_even", strconv.Itoa(p.Even), "", "", ""},
		[]string{"sign_test_p_value", cell(p.PValue), "", "", ""},
		[]string{"pairs_needed", needed, "", "", p.Note},
		[]string{"pairs_searched_matches", strconv.Itoa(p.Searched), "", "", p.SearchNote})
}

func pairRows(cmp comparison) [][]string {
	rows := [][]string{{"seed", "a_match", "b_match", "seats", "a_rank", "a_score", "b_rank", "b_score", "better"}}
	for _, p := range cmp.Pairs {
		seats := make([]string, len(p.Seats))
		for i, s := range p.Seats {
			seats[i] = strconv.Itoa(sim.SeatNumber(s))
		}
		rows = append(rows, []string{strconv.FormatUint(p.Seed, 10), p.A, p.B, strings.Join(seats, " "),
			strconv.Itoa(p.ARank), cell(&p.AScore), strconv.Itoa(p.BRank), cell(&p.BScore), p.Better})
	}
	return rows
}

func finalRows(cmp comparison) [][]string {
	rows := [][]string{{"metric", "side", "n", "min", "q1", "median", "q3", "max", "mean"}}
	for _, f := range cmp.Finals {
		for _, side := range []struct {
			key string
			sp  *spreadJSON
		}{{"a", f.A}, {"b", f.B}} {
			if sp := side.sp; sp != nil {
				rows = append(rows, []string{f.Metric, side.key, strconv.Itoa(sp.N),
					cell(&sp.Min), cell(&sp.Q1), cell(&sp.Median), cell(&sp.Q3), cell(&sp.Max), cell(&sp.Mean)})
			}
		}
	}
	return rows
}

func curveRows(cmp comparison) [][]string {
	rows := [][]string{{"metric", "side", "turn", "n", "mean", "ci95_low", "ci95_high"}}
	for _, c := range cmp.Curves {
		for _, side := range []struct {
			key string
			b   bandJSON
		}{{"a", c.A}, {"b", c.B}} {
			for i, t := range side.b.Turns {
				mean, low, high := number(side.b.Mean[i]), number(side.b.Low[i]), number(side.b.High[i])
				rows = append(rows, []string{c.Metric, side.key, strconv.Itoa(t), strconv.Itoa(side.b.N[i]),
					cell(&mean), cell(&low), cell(&high)})
			}
		}
	}
	return rows
}
