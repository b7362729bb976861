package tool

// PDFNeedsPassword: the PDF is encrypted with a user password, which
// web_fetch never has; documents encrypted only to set permissions (an
// empty user password) are read.
func PDFNeedsPassword() *Error {
	return newError(KindUnsupportedContent,
		"this PDF is encrypted and needs a password to be opened, which web_fetch never has; choose another page",
		Detail{Reason: ReasonExtractionFailed})
}

// PDFImagesOnly: the PDF has no text layer (scanned pages); images of text
// are never read.
func PDFImagesOnly() *Error {
	return newError(KindUnsupportedContent,
		"this PDF holds images of text only (scanned pages without a text layer), which are never read; choose another page",
		Detail{Reason: ReasonExtractionFailed})
}
