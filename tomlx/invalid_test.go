package tomlx

import (
	"errors"
	"strings"
	"testing"
)

// Messages the tests name.
const (
	msgEscape       = `an escape sequence is not valid; TOML 1.0 has \b \t \n \f \r \" \\ \uXXXX and \UXXXXXXXX`
	msgEscape4      = `a \u escape needs exactly 4 hexadecimal digits`
	msgEscape8      = `a \U escape needs exactly 8 hexadecimal digits`
	msgScalarValue  = "an escape names a code point that is not a Unicode character (a surrogate or above U+10FFFF)"
	msgControl      = "a control character other than tab is not allowed"
	msgLoneCR       = "a carriage return must be followed by a line feed"
	msgUTF8         = "the file is not valid UTF-8"
	msgOneLine      = "a string must be closed on the line where it starts"
	msgNotClosed    = "a string is not closed"
	msgMLNotClosed  = "a multi-line string is not closed"
	msgTooManyQuote = "too many quotation marks at the end of a multi-line string"
	msgEndOfValue   = "expected the end of the line after a value"
	msgEndOfHeader  = "expected the end of the line after a table header"
	msgEquals       = "expected an equals sign after the key"
	msgNoValue      = "a value is missing"
	msgExpectKey    = "expected a key: letters, digits, underscores and dashes, or a quoted key"
	msgNesting      = "arrays and inline tables are nested deeper than 32 levels"
	msgInlineLine   = "an inline table must be written on one line"
)

// Invalid documents written from the TOML 1.0 specification, each with the
// message and place it must be refused with.
var invalidCases = []struct {
	name      string
	doc       string
	msg       string
	line, col int
}{
	// Bytes that may appear nowhere.
	{"NUL in a comment", "# a\x00b", msgControl, 1, 4},
	{"control character in a basic string", "a = \"x\x01\"", msgControl, 1, 7},
	{"escape character in a literal string", "a = 'x\x1b'", msgControl, 1, 7},
	{"DEL in a multi-line string", "a = \"\"\"\n\x7f\"\"\"", msgControl, 2, 1},
	{"DEL in a comment", "a = 1 # \x7f", msgControl, 1, 9},
	{"form feed outside strings", "a = 1\n\x0c", msgControl, 2, 1},
	{"vertical tab as whitespace", "a =\x0b1", msgControl, 1, 4},
	{"lone CR as a line end", "a = 1\rb = 2", msgLoneCR, 1, 6},
	{"lone CR at the end", "a = 1\r", msgLoneCR, 1, 6},
	{"lone CR in a comment", "# x\r", msgLoneCR, 1, 4},
	{"lone CR in a multi-line string", "a = \"\"\"x\ry\"\"\"", msgLoneCR, 1, 9},
	{"CR CR LF", "a = 1\r\r\n", msgLoneCR, 1, 6},
	{"invalid UTF-8 in a string", "a = \"\xff\"", msgUTF8, 1, 6},
	{"invalid UTF-8 in a comment after multi-byte characters", "# é😀\xc3", msgUTF8, 1, 5},
	{"UTF-8 encoded surrogate", "a = \"\xed\xa0\x80\"", msgUTF8, 1, 6},
	{"overlong UTF-8", "a = \"\xc0\xaf\"", msgUTF8, 1, 6},
	{"truncated UTF-8 at the end", "a = 1 # \xe2\x82", msgUTF8, 1, 9},
	{"byte order mark not at the start", "a = 1\n\uFEFF", "expected a key: letters, digits, underscores and dashes, or a quoted key", 2, 1},
	{"UTF-16 byte order mark", "\xff\xfea = 1", msgUTF8, 1, 1},

	// Keys and key/value pairs.
	{"key without value", "key = # INVALID", "a value is missing before the comment", 1, 7},
	{"key at end of file", "a", msgEquals, 1, 2},
	{"key and newline", "a\n= 1", msgEquals, 1, 2},
	{"key with space inside", "first name = 1", msgEquals, 1, 7},
	{"value on the next line", "a =\n1", msgNoValue, 1, 4},
	{"value missing at the end", "a = ", msgNoValue, 1, 5},
	{"missing key", "= 1", "a key is missing before the equals sign", 1, 1},
	{"empty bare key", "a. = 1", "a key is missing before the equals sign", 1, 4},
	{"dot at end of key", "a.\n", "a key is missing", 1, 3},
	{"two dots", "a..b = 1", msgExpectKey, 1, 3},
	{"leading dot", ".a = 1", msgExpectKey, 1, 1},
	{"key with invalid character", "a! = 1", msgEquals, 1, 2},
	{"key with non-ASCII bare character", "é = 1", msgExpectKey, 1, 1},
	{"two values on one line", "a = 1 b = 2", msgEndOfValue, 1, 7},
	{"two equals signs", "a = = 1", "expected a value", 1, 5},
	{"multi-line basic string as a key", "\"\"\"a\"\"\" = 1", "a multi-line string cannot be a key", 1, 1},
	{"multi-line literal string as a key", "'''a''' = 1", "a multi-line string cannot be a key", 1, 1},
	{"quoted key not closed", "\"a = 1", msgNotClosed, 1, 7},
	{"invalid escape in a key", "\"a\\qb\" = 1", msgEscape, 1, 3},
	{"bare word value", "a = moderate", "expected a value; text must be in quotation marks, and a boolean is true or false", 1, 5},

	// Strings.
	{"basic string not closed", "a = \"abc", msgNotClosed, 1, 9},
	{"basic string across lines", "a = \"abc\ndef\"", msgOneLine, 1, 9},
	{"literal string not closed", "a = 'abc", msgNotClosed, 1, 9},
	{"literal string across lines", "a = 'abc\r\n'", msgOneLine, 1, 9},
	{"multi-line basic not closed", "a = \"\"\"abc\n\"\"", msgMLNotClosed, 2, 3},
	{"multi-line literal not closed", "a = '''abc\n''", msgMLNotClosed, 2, 3},
	{"six quotes closing a multi-line basic string", "a = \"\"\"x\"\"\"\"\"\"", msgTooManyQuote, 1, 14},
	{"six quotes closing a multi-line literal string", "a = '''x''''''", msgTooManyQuote, 1, 14},
	{"escape \\a", `a = "\a"`, msgEscape, 1, 6},
	{"escape \\x (TOML 1.1)", `a = "\x41"`, msgEscape, 1, 6},
	{"escape \\e (TOML 1.1)", `a = "\e"`, msgEscape, 1, 6},
	{"escape of a space", `a = "\ "`, msgEscape, 1, 6},
	{"escape \\' ", `a = "\'"`, msgEscape, 1, 6},
	{"backslash at the end of the document", "a = \"\\", msgNotClosed, 1, 6},
	{"short \\u", `a = "\u12"`, msgEscape4, 1, 6},
	{"\\u with a non-hex digit", `a = "\u12G4"`, msgEscape4, 1, 6},
	{"\\u at the end of the document", `a = "\u12`, msgEscape4, 1, 6},
	{"short \\U", `a = "\U0001F60"`, msgEscape8, 1, 6},
	{"lower surrogate", `a = "\uDC00"`, msgScalarValue, 1, 6},
	{"upper surrogate", `a = "\uD800"`, msgScalarValue, 1, 6},
	{"surrogate by \\U", `a = "\U0000DFFF"`, msgScalarValue, 1, 6},
	{"code point above U+10FFFF", `a = "\U00110000"`, msgScalarValue, 1, 6},
	{"largest \\U", `a = "\UFFFFFFFF"`, msgScalarValue, 1, 6},
	{"invalid escape in a multi-line string", "a = \"\"\"\n\\q\"\"\"", msgEscape, 2, 1},
	{"backslash followed by text in a multi-line string", "a = \"\"\"x\\  y\n\"\"\"", msgEscape, 1, 9},
	{"text after a string", `a = "x"y`, msgEndOfValue, 1, 8},
	{"literal string with an apostrophe", "a = 'it's'", msgEndOfValue, 1, 9},

	// Integers.
	{"leading zero", "a = 012", "a decimal number must not start with a zero", 1, 5},
	{"leading zero with sign", "a = -012", "a decimal number must not start with a zero", 1, 5},
	{"leading zeros", "a = 00", "a decimal number must not start with a zero", 1, 5},
	{"leading zero with underscore", "a = 0_1", "a decimal number must not start with a zero", 1, 5},
	{"double underscore", "a = 1__0", msgUnderscore, 1, 5},
	{"leading underscore", "a = _1", msgUnderscore, 1, 5},
	{"trailing underscore", "a = 1_", msgUnderscore, 1, 5},
	{"underscore after sign", "a = +_1", msgUnderscore, 1, 5},
	{"double sign", "a = ++1", msgBadNumber, 1, 5},
	{"sign alone", "a = -", msgBadNumber, 1, 5},
	{"above int64", "a = 9223372036854775808", msgIntegerRange, 1, 5},
	{"below int64", "a = -9223372036854775809", msgIntegerRange, 1, 5},
	{"far above int64", "a = 99999999999999999999999999", msgIntegerRange, 1, 5},
	{"hex above int64", "a = 0x8000000000000000", msgIntegerRange, 1, 5},
	{"hex all ones", "a = 0xffff_ffff_ffff_ffff", msgIntegerRange, 1, 5},
	{"octal above int64", "a = 0o1000000000000000000000", msgIntegerRange, 1, 5},
	{"binary above int64", "a = 0b1" + strings.Repeat("0", 63), msgIntegerRange, 1, 5},
	{"signed hex", "a = +0x1", msgSignedPrefixed, 1, 5},
	{"negative octal", "a = -0o7", msgSignedPrefixed, 1, 5},
	{"negative binary", "a = -0b1", msgSignedPrefixed, 1, 5},
	{"capital hex prefix", "a = 0X1", msgBadNumber, 1, 5},
	{"capital octal prefix", "a = 0O7", msgBadNumber, 1, 5},
	{"capital binary prefix", "a = 0B1", msgBadNumber, 1, 5},
	{"empty hex", "a = 0x", msgBadNumber, 1, 5},
	{"invalid hex digit", "a = 0xG", msgBadNumber, 1, 5},
	{"invalid octal digit", "a = 0o8", msgBadNumber, 1, 5},
	{"invalid binary digit", "a = 0b2", msgBadNumber, 1, 5},
	{"underscore after prefix", "a = 0x_1", msgUnderscore, 1, 5},
	{"trailing underscore in hex", "a = 0x1_", msgUnderscore, 1, 5},
	{"text after integer", "a = 123abc", msgBadNumber, 1, 5},
	{"integer with space", "a = 1 2", msgEndOfValue, 1, 7},
	{"non-ASCII digit", "a = 1٠", msgEndOfValue, 1, 6},

	// Floats.
	{"leading dot", "a = .5", msgBadNumber, 1, 5},
	{"trailing dot", "a = 1.", "a decimal point must be followed by a digit", 1, 5},
	{"dot before exponent", "a = 1.e5", "a decimal point must be followed by a digit", 1, 5},
	{"exponent without digits", "a = 1e", "an exponent must have digits", 1, 5},
	{"exponent sign without digits", "a = 1e+", "an exponent must have digits", 1, 5},
	{"dot in exponent", "a = 1e5.0", msgBadNumber, 1, 5},
	{"two dots", "a = 1.2.3", msgBadNumber, 1, 5},
	{"leading zero in a float", "a = 01.5", "a decimal number must not start with a zero", 1, 5},
	{"underscore before dot", "a = 1_.5", msgUnderscore, 1, 5},
	{"underscore after dot", "a = 1._5", msgUnderscore, 1, 5},
	{"underscore in exponent start", "a = 1e_5", msgUnderscore, 1, 5},
	{"capital inf", "a = Inf", "expected a value; text must be in quotation marks, and a boolean is true or false", 1, 5},
	{"capital NaN", "a = NaN", "expected a value; text must be in quotation marks, and a boolean is true or false", 1, 5},
	{"infinity", "a = -infinity", "expected a value; text must be in quotation marks, and a boolean is true or false", 1, 5},

	// Booleans.
	{"capital true", "a = True", "expected a value; text must be in quotation marks, and a boolean is true or false", 1, 5},
	{"truthy", "a = truee", "expected a value; text must be in quotation marks, and a boolean is true or false", 1, 5},
	{"boolean prefix", "a = fals", "expected a value; text must be in quotation marks, and a boolean is true or false", 1, 5},

	// Dates and times.
	{"month 13", "a = 1979-13-27", msgBadDatetime, 1, 5},
	{"month 00", "a = 1979-00-27", msgBadDatetime, 1, 5},
	{"day 00", "a = 1979-05-00", msgBadDatetime, 1, 5},
	{"April 31", "a = 1979-04-31", msgBadDatetime, 1, 5},
	{"February 29 of a common year", "a = 1900-02-29", msgBadDatetime, 1, 5},
	{"February 30 of a leap year", "a = 2000-02-30", msgBadDatetime, 1, 5},
	{"one-digit month", "a = 1979-5-27", msgBadDatetime, 1, 5},
	{"five-digit year", "a = 10000-01-01", msgBadDatetime, 1, 5},
	{"three-digit year", "a = 979-05-27", msgBadDatetime, 1, 5},
	{"hour 24", "a = 24:00:00", msgBadDatetime, 1, 5},
	{"minute 60", "a = 07:60:00", msgBadDatetime, 1, 5},
	{"second 61", "a = 07:32:61", msgBadDatetime, 1, 5},
	{"time without seconds (TOML 1.1)", "a = 07:32", msgBadDatetime, 1, 5},
	{"date-time without seconds (TOML 1.1)", "a = 1979-05-27T07:32Z", msgBadDatetime, 1, 5},
	{"fraction without digits", "a = 07:32:00.", msgBadDatetime, 1, 5},
	{"date with T and no time", "a = 1979-05-27T", msgBadDatetime, 1, 5},
	{"offset hour 24", "a = 1979-05-27T07:32:00+24:00", msgBadDatetime, 1, 5},
	{"offset minute 60", "a = 1979-05-27T07:32:00+01:60", msgBadDatetime, 1, 5},
	{"offset without minutes", "a = 1979-05-27T07:32:00+01", msgBadDatetime, 1, 5},
	{"offset without colon", "a = 1979-05-27T07:32:00+0100", msgBadDatetime, 1, 5},
	{"text after a date-time", "a = 1979-05-27T07:32:00Zx", msgBadDatetime, 1, 5},
	{"offset on a time alone", "a = 07:32:00Z", msgBadDatetime, 1, 5},
	{"wrong separator", "a = 1979-05-27X07:32:00", msgBadDatetime, 1, 5},
	{"space and a bad time", "a = 1979-05-27 7:32:00", msgBadDatetime, 1, 5},
	{"date with two spaces before the time", "a = 1979-05-27  07:32:00", msgEndOfValue, 1, 17},

	// Arrays.
	{"array not closed", "a = [1, 2", "an array is not closed", 1, 10},
	{"array not closed before a header", "a = [1,\n[t]", "expected a value; text must be in quotation marks, and a boolean is true or false", 2, 2},
	{"missing comma", "a = [1 2]", "expected a comma or ] after a value in an array", 1, 8},
	{"leading comma", "a = [,1]", "expected a value", 1, 6},
	{"only a comma", "a = [,]", "expected a value", 1, 6},
	{"double comma", "a = [1,,2]", "expected a value", 1, 8},

	// Inline tables.
	{"newline inside an inline table", "a = {\nb = 1 }", msgInlineLine, 1, 6},
	{"newline after a value in an inline table", "a = { b = 1\n}", msgInlineLine, 1, 12},
	{"newline after a comma in an inline table", "a = { b = 1,\nc = 2 }", msgInlineLine, 1, 13},
	{"trailing comma in an inline table (TOML 1.1)", "a = { b = 1, }", "a comma is not allowed before the } of an inline table", 1, 14},
	{"comment inside an inline table", "a = { # x\n}", "a comment is not allowed inside an inline table", 1, 7},
	{"inline table not closed", "a = { b = 1", "an inline table is not closed", 1, 12},
	{"missing comma in an inline table", "a = { b = 1 c = 2 }", "expected a comma or } after a value in an inline table", 1, 13},
	{"double comma in an inline table", "a = { b = 1,, c = 2 }", msgExpectKey, 1, 13},
	{"leading comma in an inline table", "a = { , b = 1 }", msgExpectKey, 1, 7},
	{"empty value in an inline table", "a = { b = }", "expected a value", 1, 11},

	// Headers.
	{"empty header", "[]", "a table header needs a key", 1, 2},
	{"empty array-of-tables header", "[[]]", "a table header needs a key", 1, 3},
	{"header not closed", "[a", "expected ] to close the table header", 1, 3},
	{"header not closed before a newline", "[a\nb = 1", "expected ] to close the table header", 1, 3},
	{"array-of-tables header not closed", "[[a]", "expected ]] to close the header of an array of tables", 1, 4},
	{"array-of-tables header with space between brackets", "[[a] ]", "expected ]] to close the header of an array of tables", 1, 4},
	{"space between opening brackets", "[ [a]]", msgExpectKey, 1, 3},
	{"extra bracket", "[a]]", msgEndOfHeader, 1, 4},
	{"text after a header", "[a] b = 1", msgEndOfHeader, 1, 5},
	{"header with a dot at the end", "[a.]", "a table header needs a key", 1, 4},
	{"header with an invalid character", "[a!]", "expected ] to close the table header", 1, 3},
	{"header with a multi-line key", "[\"\"\"a\"\"\"]", "a multi-line string cannot be a key", 1, 2},
	{"header with a newline in the key", "[a\n.b]", "expected ] to close the table header", 1, 3},
}

func TestParseInvalidDocuments(t *testing.T) {
	for _, tc := range invalidCases {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Parse([]byte(tc.doc))
			if err == nil {
				t.Fatalf("accepted: %s", dump(doc))
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error of type %T", err)
			}
			if e.Key != "" || e.Msg != tc.msg || e.Line != tc.line || e.Col != tc.col {
				t.Errorf("got  %q %q at %d:%d\nwant %q at %d:%d", e.Key, e.Msg, e.Line, e.Col, tc.msg, tc.line, tc.col)
			}
		})
	}
}

// The message names the kind of problem and the place, and nothing of the
// document: a distinctive word in each invalid document never reaches it.
func TestREQ_CFG_005_SyntaxErrorsNeverRepeatTheDocument(t *testing.T) {
	const canary = "Zq9canaryXk"
	docs := []string{
		"a = " + canary,
		"a = \"" + canary,
		"a = '" + canary,
		"a = \"" + canary + "\\q\"",
		"a = \"" + canary + "\\uD800\"",
		"a = \"\"\"" + canary,
		"a = [\"" + canary + "\" 1]",
		"a = [1, \"" + canary + "\", " + canary + "]",
		"a = {x = \"" + canary + "\" y = 1}",
		"a = \"" + canary + "\" " + canary,
		"a = 1" + canary,
		"a = 0x" + canary,
		"a = 1979-05-27T" + canary,
		canary + " 1",
		"[" + canary,
		"[[" + canary + "]",
		"[" + canary + "] x",
		"a = \"" + canary + "\x01\"",
		"# " + canary + "\x00",
		"a = \"" + canary + "\xff\"",
		"a = \"" + canary + "\r\"",
		"a = \"\"\"" + canary + "\"\"\"\"\"\"",
		"a = 9" + strings.Repeat("9", 30),
		"a = {\n" + canary + " = 1}",
	}
	for _, doc := range docs {
		_, err := Parse([]byte(doc))
		if err == nil {
			t.Errorf("accepted %q", doc)
			continue
		}
		if strings.Contains(err.Error(), canary) || strings.Contains(err.Error(), "999") {
			t.Errorf("%q: the message repeats the document: %v", doc, err)
		}
		if !strings.HasPrefix(err.Error(), "TOML syntax error: ") {
			t.Errorf("%q: not a syntax error: %v", doc, err)
		}
	}
}
