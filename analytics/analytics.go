// Package analytics turns stored rows into what the dashboard shows: per
// turn lines of a metric, the events worth marking on them, and bot
// standings with confidence intervals. Everything here is a pure function
// of its arguments; it knows nothing of HTTP or charts (DESIGN.md §2, §9).
package analytics
