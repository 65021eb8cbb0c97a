#!/bin/sh
# A bot that stays ("D") for two turns, then closes its standard output and
# keeps running without reading its input.
read -r req && echo D
read -r req && echo D
exec >&-
sleep 1000
