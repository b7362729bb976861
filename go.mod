module rypsok

go 1.26.8

require (
	golang.org/x/net v0.62.0
	golang.org/x/text v0.44.0
)
