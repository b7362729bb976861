// Package robots reads robots.txt as RFC 9309 says and answers whether a
// path may be fetched by rypsok, with a bounded per-origin cache.
//
// It must never fetch on its own: the fetch pipeline gives it a Getter that
// goes through the agent-directed egress profile (Get builds the request
// and reads the answer, but only with the client the pipeline passes in).
// It never logs, and its errors never carry a URL, a path or text of the
// file.
//
// Choices where RFC 9309 leaves room, made here on purpose:
//
//   - Lines end at LF, CR or CRLF; a leading UTF-8 byte order mark is
//     skipped, whole or its first one or two octets; only the first
//     MaxBytes are read and a line cut by that bound is dropped (§2.5).
//   - Misspelt record names that large crawlers document accepting
//     ("useragent", "user agent", "dissallow", "dissalow", "disalow",
//     "diasllow", "disallaw") are read as the record they name, and a record
//     written without its colon ("Disallow /tmp") is read when the name is
//     known and the value is one word. §2.2.4 allows leniency for records
//     outside the protocol; reading them honours the author's evident
//     intent and only ever adds rules the author wrote.
//   - Unknown records (sitemap, crawl-delay, ...) are skipped and never end
//     a group (§2.2.4); a user-agent line ends a group only after the group
//     has had an allow or disallow line.
//   - The product token of a user-agent line is the leading run of letters,
//     "_" and "-" of its value ("rypsok/1.0" names rypsok); the global group
//     is the value "*" (optionally followed by white space).
//   - A pattern that does not start with "/" or "*" can never match, since
//     matching starts at the first octet of the path (§2.2.2).
package robots
