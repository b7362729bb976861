package htmlx

import "strings"

// decorativeWords are the words with which alternative text says what
// kind of picture it is rather than what it shows of the page's subject:
// an icon, an illustration, a screenshot or mockup of a product, the
// hero, banner or background picture of a section, a graphic, a
// decoration.
var decorativeWords = [...]string{
	"icon", "icons", "illustration", "illustrations", "screenshot", "screenshots",
	"mockup", "mockups", "hero", "banner", "background", "graphic", "decorative",
}

// decorativeAlt reports alternative text that names its image as
// decoration ("Security shield - Icon", "Line drawing illustration of a
// browser", "Screenshot of the editor", "WAF - Hero image"). Landing
// pages set such pictures beside every section; the section's words say
// what the page says, and the picture's description, which no reader
// sees as text, only repeats or dresses them. Like a logo (logoAlt), it
// is left out.
func decorativeAlt(alt string) bool {
	for _, f := range strings.Fields(alt) {
		f = strings.Trim(f, ".,;:!?()'\"-")
		for _, w := range decorativeWords {
			if strings.EqualFold(f, w) {
				return true
			}
		}
	}
	return false
}
