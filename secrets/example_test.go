package secrets_test

import (
	"fmt"

	"rypsok/secrets"
)

func ExampleScan() {
	for _, f := range secrets.Scan("résumé upload https://alice:Sw0rdfish@files.example/cv.pdf") {
		fmt.Println(f.Kind, f.Start, f.End)
	}
	// Output: url_password 28 37
}

func ExampleMaskText() {
	masked, n := secrets.MaskText("login?user=bob&password=Tr0ub4dor!7&next=/home")
	fmt.Println(masked, n)
	// Output: login?user=bob&password=[redacted]&next=/home 1
}

func ExampleSecret() {
	key := secrets.New("value-from-the-environment")
	fmt.Printf("%v %s %q %+v\n", key, key, key, struct{ Key secrets.Secret }{key})
	// Output: [redacted] [redacted] [redacted] {Key:[redacted]}
}
