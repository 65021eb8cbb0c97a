#!/bin/sh
# A bot that never reads its input nor answers.
exec sleep 1000
