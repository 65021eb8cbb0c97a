// Package analytics turns stored rows into what the dashboard shows: per
// turn lines of a metric, the events worth marking on them, and bot
// standings with confidence intervals, and bot ratings. Everything here but
// Refitter, which keeps the stored ratings fitted in the background, is a
// pure function of its arguments; it knows nothing of HTTP or charts
// (DESIGN.md §2, §9).
package analytics
