module github.com/replaylab/replaylab

go 1.26.8
