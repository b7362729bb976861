package egress_test

import (
	"fmt"
	"net/url"

	"rypsok/egress"
)

func ExamplePolicy_CheckURL() {
	allow, _ := egress.ParseRule("wiki.corp.example")
	p := &egress.Policy{Allow: []egress.Rule{allow}, Ports: []int{80, 443}}
	for _, s := range []string{
		"https://en.wikipedia.org/wiki/Go",
		"https://wiki.corp.example:8080/",
		"https://0x7f.1/",
		"https://[::ffff:169.254.169.254]/",
		"https://user:secret@example.com/",
		"ftp://example.com/",
	} {
		u, _ := url.Parse(s)
		if d := p.CheckURL(u); d != nil {
			fmt.Println(d.Reason, d.Class)
			continue
		}
		fmt.Println("admitted")
	}
	// Output:
	// admitted
	// admitted
	// egress loopback
	// egress metadata
	// secret_in_url userinfo_password
	// scheme scheme
}

func ExampleParseRule() {
	for _, s := range []string{"10.0.0.0/8", "*.corp.example", "example.com.", "https://example.com"} {
		r, err := egress.ParseRule(s)
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Println("wide:", r.Wide())
	}
	// Output:
	// wide: true
	// wide: false
	// error: a host pattern must not end with a dot
	// error: a rule must not have a scheme
}
