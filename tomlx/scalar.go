package tomlx

import "strconv"

// Messages about scalars. None repeats the text it is about.
const (
	msgBadNumber      = "a number is not valid"
	msgBadDatetime    = "a date or time is not valid (TOML writes 1979-05-27, 07:32:00, 1979-05-27T07:32:00 or 1979-05-27T07:32:00Z)"
	msgUnderscore     = "an underscore in a number must stand between two digits"
	msgLeadingZero    = "a decimal number must not start with a zero"
	msgIntegerRange   = "the integer is outside the 64-bit range"
	msgSignedPrefixed = "a hexadecimal, octal or binary integer must not have a sign"
	msgBareWord       = "expected a value; text must be in quotation marks, and a boolean is true or false"
)

// readScalar fills v from a bare token: a boolean, an integer, a float or
// a date and time. It returns a message when the token is none of them.
func readScalar(v *Value, tok []byte) string {
	switch string(tok) {
	case "true", "false":
		v.Kind, v.Bool = KindBool, tok[0] == 't'
		return ""
	case "inf", "+inf", "-inf", "nan", "+nan", "-nan":
		v.Kind = KindFloat
		return ""
	}
	if looksLikeDatetime(tok) {
		if !validDatetime(tok) {
			return msgBadDatetime
		}
		v.Kind = KindDatetime
		return ""
	}
	body := tok
	if tok[0] == '+' || tok[0] == '-' {
		body = tok[1:]
	}
	if len(body) == 0 {
		return msgBadNumber
	}
	if len(body) >= 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'o' || body[1] == 'b') {
		if len(body) != len(tok) {
			return msgSignedPrefixed
		}
		return readPrefixedInteger(v, tok)
	}
	if c := body[0]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
		return msgBareWord
	}
	return readDecimal(v, tok)
}

// looksLikeDatetime reports whether a token was meant as a date or time: it
// starts with a digit and has a colon, or a dash right after a digit.
func looksLikeDatetime(tok []byte) bool {
	if !isDigit(tok[0]) {
		return false
	}
	for i := 1; i < len(tok); i++ {
		if tok[i] == ':' || tok[i] == '-' && isDigit(tok[i-1]) {
			return true
		}
	}
	return false
}

// digitRun reads digits (of the given base) with single underscores
// between them from tok[i:] and returns the end; ok is false when an
// underscore is misplaced. end == i means there is no digit.
func digitRun(tok []byte, i int, isDigitOf func(byte) bool) (end int, ok bool) {
	j := i
	for j < len(tok) {
		switch {
		case isDigitOf(tok[j]):
			j++
		case tok[j] == '_':
			if j == i || j+1 >= len(tok) || !isDigitOf(tok[j+1]) {
				return j, false
			}
			j++
		default:
			return j, true
		}
	}
	return j, true
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f'
}
func isOctalDigit(c byte) bool { return c >= '0' && c <= '7' }
func isBinaryDigit(c byte) bool {
	return c == '0' || c == '1'
}

func withoutUnderscores(b []byte) string {
	out := make([]byte, 0, len(b))
	for _, c := range b {
		if c != '_' {
			out = append(out, c)
		}
	}
	return string(out)
}

func readPrefixedInteger(v *Value, tok []byte) string {
	base, isDigitOf := 16, isHexDigit
	switch tok[1] {
	case 'o':
		base, isDigitOf = 8, isOctalDigit
	case 'b':
		base, isDigitOf = 2, isBinaryDigit
	}
	end, ok := digitRun(tok, 2, isDigitOf)
	switch {
	case !ok:
		return msgUnderscore
	case end == 2 || end != len(tok):
		return msgBadNumber
	}
	n, err := strconv.ParseInt(withoutUnderscores(tok[2:]), base, 64)
	if err != nil {
		return msgIntegerRange
	}
	v.Kind, v.Int = KindInteger, n
	return ""
}

// readDecimal reads a decimal integer or float, with an optional sign.
func readDecimal(v *Value, tok []byte) string {
	i := 0
	if tok[0] == '+' || tok[0] == '-' {
		i = 1
	}
	end, ok := digitRun(tok, i, isDigit)
	switch {
	case !ok:
		return msgUnderscore
	case end == i:
		return msgBadNumber
	case tok[i] == '0' && end-i > 1:
		return msgLeadingZero
	}
	intEnd := end
	isFloat := false
	if end < len(tok) && tok[end] == '.' {
		isFloat = true
		start := end + 1
		if end, ok = digitRun(tok, start, isDigit); !ok {
			return msgUnderscore
		}
		if end == start {
			return "a decimal point must be followed by a digit"
		}
	}
	if end < len(tok) && (tok[end] == 'e' || tok[end] == 'E') {
		isFloat = true
		start := end + 1
		if start < len(tok) && (tok[start] == '+' || tok[start] == '-') {
			start++
		}
		if end, ok = digitRun(tok, start, isDigit); !ok {
			return msgUnderscore
		}
		if end == start {
			return "an exponent must have digits"
		}
	}
	if end != len(tok) {
		return msgBadNumber
	}
	if isFloat {
		v.Kind = KindFloat
		return ""
	}
	n, err := strconv.ParseInt(withoutUnderscores(tok[:intEnd]), 10, 64)
	if err != nil {
		return msgIntegerRange
	}
	v.Kind, v.Int = KindInteger, n
	return ""
}

// validDatetime checks a token against TOML 1.0's offset date-time, local
// date-time, local date and local time; the date and time may be separated
// by T, t or a space.
func validDatetime(tok []byte) bool {
	if len(tok) >= 3 && tok[2] == ':' {
		return timeLength(tok) == len(tok)
	}
	if len(tok) < 10 || !validDate(tok[:10]) {
		return false
	}
	if len(tok) == 10 {
		return true
	}
	if c := tok[10]; c != 'T' && c != 't' && c != ' ' {
		return false
	}
	rest := tok[11:]
	n := timeLength(rest)
	if n < 0 {
		return false
	}
	return validOffset(rest[n:])
}

// twoDigits reads a two-digit number at b[i:], or -1.
func twoDigits(b []byte, i int) int {
	if i+2 > len(b) || !isDigit(b[i]) || !isDigit(b[i+1]) {
		return -1
	}
	return int(b[i]-'0')*10 + int(b[i+1]-'0')
}

func validDate(b []byte) bool {
	for _, i := range []int{0, 1, 2, 3, 5, 6, 8, 9} {
		if !isDigit(b[i]) {
			return false
		}
	}
	if b[4] != '-' || b[7] != '-' {
		return false
	}
	year := int(b[0]-'0')*1000 + int(b[1]-'0')*100 + twoDigits(b, 2)
	month, day := twoDigits(b, 5), twoDigits(b, 8)
	if month < 1 || month > 12 || day < 1 {
		return false
	}
	days := [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[month-1]
	if month == 2 && year%4 == 0 && (year%100 != 0 || year%400 == 0) {
		days = 29
	}
	return day <= days
}

// timeLength reads hh:mm:ss with an optional fraction at the start of b and
// returns its length, or -1.
func timeLength(b []byte) int {
	hour, minute, second := twoDigits(b, 0), twoDigits(b, 3), twoDigits(b, 6)
	if hour < 0 || minute < 0 || second < 0 || b[2] != ':' || b[5] != ':' {
		return -1
	}
	if hour > 23 || minute > 59 || second > 60 {
		return -1
	}
	n := 8
	if n < len(b) && b[n] == '.' {
		n++
		start := n
		for n < len(b) && isDigit(b[n]) {
			n++
		}
		if n == start {
			return -1
		}
	}
	return n
}

// validOffset accepts nothing (a local date-time), Z, z or ±hh:mm.
func validOffset(b []byte) bool {
	switch {
	case len(b) == 0:
		return true
	case len(b) == 1:
		return b[0] == 'Z' || b[0] == 'z'
	case len(b) == 6 && (b[0] == '+' || b[0] == '-') && b[3] == ':':
		hour, minute := twoDigits(b, 1), twoDigits(b, 4)
		return hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
