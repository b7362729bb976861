package tool

import (
	"encoding/json"
	"testing"
)

func TestREQ_FETCH_008_PDFErrorsSayWhyAndWhatToDo(t *testing.T) {
	for _, tc := range []struct {
		err  *Error
		want string
	}{
		{PDFNeedsPassword(), `{"detail":{"reason":"extraction_failed"},"kind":"unsupported_content","message":"this PDF is encrypted and needs a password to be opened, which web_fetch never has; choose another page"}`},
		{PDFImagesOnly(), `{"detail":{"reason":"extraction_failed"},"kind":"unsupported_content","message":"this PDF holds images of text only (scanned pages without a text layer), which are never read; choose another page"}`},
	} {
		b, err := json.Marshal(tc.err)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tc.want {
			t.Errorf("got  %s\nwant %s", b, tc.want)
		}
	}
}
