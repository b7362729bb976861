package htmlx

// scaleSizes are the steps of a type scale a class names after a style
// ("caption-s", "caption-m", "caption_lg", "caption-2").
var scaleSizes = [...]string{"xxs", "xs", "s", "sm", "m", "md", "l", "lg", "xl", "xxl",
	"small", "medium", "large", "1", "2", "3", "4"}

// typeScaleCaption reports a class value in which every "caption" is a
// step of a type scale ("caption-s", "Caption_M"): a design system's
// text style for small print, which themes set on a card's byline, its
// category or its teaser as often as under a picture. Such a class says
// how the text looks, not that it captions a figure.
func typeScaleCaption(val []byte) bool {
	const word = "caption"
	found := false
	for i := 0; i+len(word) <= len(val); i++ {
		if !asciiEqualFold(val[i:i+len(word)], word) {
			continue
		}
		j := i + len(word)
		if j >= len(val) || (val[j] != '-' && val[j] != '_') {
			return false
		}
		j++
		k := j
		for k < len(val) && isASCIIAlnum(val[k]) {
			k++
		}
		if !scaleStep(val[j:k]) || (k < len(val) && val[k] != ' ' && val[k] != '\t' && val[k] != '\n') {
			return false
		}
		found = true
		i = k
	}
	return found
}

func scaleStep(w []byte) bool {
	for _, s := range scaleSizes {
		if asciiEqualFold(w, s) {
			return true
		}
	}
	return false
}

func isASCIIAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
