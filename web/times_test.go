package web

import (
	"bytes"
	"fmt"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/replaylab/replaylab/store"
)

// uploadWithOutput is the upload of replay with the bot output file out,
// answered with status.
func uploadWithOutput(t *testing.T, out, replay []byte, status int) scenario {
	body, contentType := multipartBody(t, field{"replay", replay}, field{"output", out})
	return scenario{method: http.MethodPost, url: "/api/v1/replays", body: body, header: map[string]string{"Content-Type": contentType}, status: status}
}

// TestAnswerTimes uploads a replay with an output file holding a seat's
// answer times and reads them back: the times API, the inspector's turn,
// the match page's collapsed "Response time" chart and its numbers.
func TestAnswerTimes(t *testing.T) {
	f := newFixture(t, nil)
	enc, _ := f.encodeFresh(t)
	var file bytes.Buffer
	times := store.BotOutput{Seat: 0, Stream: store.Times, Times: []time.Duration{2500 * time.Microsecond, 0, 40 * time.Millisecond}, Limit: time.Second}
	if err := store.WriteBotOutput(&file, []store.BotOutput{times}); err != nil {
		t.Fatal(err)
	}
	uploadWithOutput(t, file.Bytes(), enc.Bytes, 201).run(t, f.e)

	var got timesJSON
	getJSON(t, f.e, "/api/v1/matches/"+enc.ID+"/times", http.StatusOK, &got)
	if got.LimitMS != 1000.0 || len(got.Seats) != 1 || got.Seats[0].LimitMS != 1000.0 || got.Seats[0].Seat != 0 || len(got.Seats[0].TimesMS) != 3 ||
		*got.Seats[0].TimesMS[0] != 2.5 || got.Seats[0].TimesMS[1] != nil || *got.Seats[0].TimesMS[2] != 40 {
		t.Errorf("times: got %+v, want seat 0's 2.5, null, 40 ms and the limit 1000 ms", got)
	}
	var turn struct {
		Times []turnTimeJSON `json:"times"`
	}
	getJSON(t, f.e, "/api/v1/matches/"+enc.ID+"/turns/1", http.StatusOK, &turn)
	if len(turn.Times) != 1 || turn.Times[0] != (turnTimeJSON{0, 2.5}) {
		t.Errorf("turn 1's times: got %+v, want seat 0's 2.5 ms", turn.Times)
	}
	getJSON(t, f.e, "/api/v1/matches/"+enc.ID+"/turns/2", http.StatusOK, &turn)
	if len(turn.Times) != 0 {
		t.Errorf("turn 2's times: got %+v, want none (not timed)", turn.Times)
	}
	var bot struct {
		ResponseTimes []versionTimesJSON `json:"response_times"`
	}
	getJSON(t, f.e, "/api/v1/bots/toad/astar", http.StatusOK, &bot)
	if want := []versionTimesJSON{{Version: "v1", Seats: 1, Turns: 2, P50MS: 2.5, P99MS: 40}}; !reflect.DeepEqual(bot.ResponseTimes, want) {
		t.Errorf("bot's response times: got %+v, want %+v", bot.ResponseTimes, want)
	}
	for _, sc := range []scenario{
		{name: "bot page", url: "/bots/toad/astar", status: 200, want: []string{"Response time", "<td class=\"num\">2.5 ms</td><td class=\"num\">40 ms</td>"}},
		{name: "match page", url: matchURL(enc.ID), status: 200, want: []string{"Response time", matchURL(enc.ID) + "/times/chart"}},
		{name: "chart", url: matchURL(enc.ID) + "/times/chart", status: 200, want: []string{`"option":`, "Response time (ms)", "[1,2.5]", `"yAxis":1000`, "turn limit"}},
		{name: "unknown match", url: "/api/v1/matches/" + fmt.Sprintf("%064x", 7) + "/times", status: 404},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, f.e) })
	}
}
