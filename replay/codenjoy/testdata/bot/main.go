// Command bot is a CodeBattle Snake bot for the tests of package
// codenjoy: it takes the board URL as the clients do (its first argument,
// or CODENJOY_URL), connects and answers each board by -mode:
//
//	walk      the first free direction from its own head (UP, RIGHT, DOWN, LEFT)
//	chatter   walk, printing lines to stdout and stderr about every board
//	late      walk, but sleep -sleep before answering the second board
//	flood     walk, sending 200 more frames after every answer
//	oversize  walk; a 5000-byte frame for board 2, a 2 MiB one for board 3
//	crash     walk, and exit after answering board 3
//	child     walk, after starting a child (sleep) that writes its pid to -pidfile
//	wrongcode connect with a wrong code and exit
//	jsonlines speak replaylab's JSON lines on stdin and stdout instead, answering UP
//
// Every mode but jsonlines writes "board N" to stderr for each board.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/coder/websocket"
)

func main() {
	mode := flag.String("mode", "walk", "behaviour")
	sleep := flag.Duration("sleep", time.Second, "late: how long to sleep")
	pidfile := flag.String("pidfile", "", "child: where the child writes its pid")
	flag.Parse()
	if *mode == "jsonlines" {
		jsonLines()
		return
	}
	url := os.Getenv("CODENJOY_URL")
	if flag.NArg() > 0 {
		url = flag.Arg(0)
	}
	// The clients' own conversion of the board URL.
	ws := strings.Replace(url, "http", "ws", 1)
	ws = strings.Replace(ws, "board/player/", "ws?user=", 1)
	ws = strings.Replace(ws, "?code=", "&code=", 1)
	if *mode == "wrongcode" {
		ws += "0"
	}
	if *mode == "child" {
		cmd := exec.Command("sh", "-c", "echo $$ > "+*pidfile+"; exec sleep 1000")
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	ctx := context.Background()
	c, _, err := websocket.Dial(ctx, ws, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dial:", err)
		os.Exit(3)
	}
	c.SetReadLimit(1 << 20)
	for n := 1; ; n++ {
		_, data, err := c.Read(ctx)
		if err != nil {
			fmt.Fprintln(os.Stderr, "read:", err)
			os.Exit(0)
		}
		board, ok := strings.CutPrefix(string(data), "board=")
		if !ok {
			fmt.Fprintln(os.Stderr, "not a board:", string(data))
			os.Exit(4)
		}
		fmt.Fprintf(os.Stderr, "board %d\n", n)
		if *mode == "chatter" {
			fmt.Printf("thinking about board %d\n", n)
			fmt.Fprintf(os.Stderr, "debug %d\n", n)
		}
		if *mode == "late" && n == 2 {
			time.Sleep(*sleep)
		}
		answer := walk(board)
		switch {
		case *mode == "oversize" && n == 2:
			answer = "UP" + strings.Repeat(" ", 4998)
		case *mode == "oversize" && n == 3:
			answer = strings.Repeat("x", 2<<20)
		}
		if err := c.Write(ctx, websocket.MessageText, []byte(answer)); err != nil {
			fmt.Fprintln(os.Stderr, "write:", err)
			os.Exit(0)
		}
		if *mode == "flood" {
			for range 200 {
				c.Write(ctx, websocket.MessageText, []byte("LEFT"))
			}
		}
		if *mode == "crash" && n == 3 {
			os.Exit(2)
		}
	}
}

// walk answers the first direction whose cell next to the bot's own head
// is empty or food, or UP when it finds no head.
func walk(board string) string {
	cells := []rune(board)
	size := 1
	for size*size < len(cells) {
		size++
	}
	head := strings.IndexFunc(board, func(r rune) bool { return strings.ContainsRune("▲▼◄►♥♠", r) })
	if head < 0 {
		return "UP"
	}
	head = len([]rune(board[:head]))
	x, y := head%size, head/size
	for _, d := range []struct {
		name   string
		dx, dy int
	}{{"UP", 0, -1}, {"RIGHT", 1, 0}, {"DOWN", 0, 1}, {"LEFT", -1, 0}} {
		nx, ny := x+d.dx, y+d.dy
		if nx < 0 || ny < 0 || nx >= size || ny >= size {
			continue
		}
		if strings.ContainsRune(" ○$®©", cells[ny*size+nx]) {
			return d.name
		}
	}
	return "UP"
}

// jsonLines answers every request line of replaylab's protocol with UP.
func jsonLines() {
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return
		}
		var req struct{ Turn int }
		json.Unmarshal(line, &req)
		fmt.Printf("{\"turn\":%d,\"command\":\"UP\"}\n", req.Turn)
	}
}
