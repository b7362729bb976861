package oneway

type base struct{ n int }

// get has a local named like top, a function of user.go: a local is not a
// use, so base.go does not use user.go.
func (b base) get() int {
	top := b.n
	return top
}
