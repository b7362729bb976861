package tomlx_test

import (
	"errors"
	"fmt"

	"rypsok/tomlx"
)

func ExampleParse() {
	doc, err := tomlx.Parse([]byte("[search]\nmax_results = 5\nlanguages = [\"en\", \"ja\"]\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	search := doc.Values["search"].Table
	v := search.Values["max_results"]
	fmt.Println(v.Int, v.Line, v.Col)
	fmt.Println(search.KeyLine["languages"], search.KeyCol["languages"], len(search.Values["languages"].Array))
	// Output:
	// 5 2 15
	// 3 1 2
}

func ExampleError() {
	_, err := tomlx.Parse([]byte("[engines.w]\ntype = \"wikipedia\"\n\n\n[engines.w]\n"))
	var e *tomlx.Error
	if errors.As(err, &e) {
		fmt.Println(e.Key, e.Line, e.Col)
	}
	fmt.Println(err)
	_, err = tomlx.Parse([]byte("max_results = 5x\n"))
	fmt.Println(err)
	// Output:
	// engines.w 5 10
	// engines.w: defined more than once (line 5, column 10)
	// TOML syntax error: a number is not valid (line 1, column 15)
}
