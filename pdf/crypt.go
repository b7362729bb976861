package pdf

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/md5"
	"crypto/rc4"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
)

// passwordPad is the 32-byte padding of the standard security handler
// (ISO 32000-1, 7.6.3.3).
var passwordPad = [32]byte{
	0x28, 0xBF, 0x4E, 0x5E, 0x4E, 0x75, 0x8A, 0x41, 0x64, 0x00, 0x4E, 0x56, 0xFF, 0xFA, 0x01, 0x08,
	0x2E, 0x2E, 0x00, 0xB6, 0xD0, 0x68, 0x3E, 0x80, 0x2F, 0x0C, 0xA9, 0xFE, 0x64, 0x53, 0x69, 0x7A,
}

// cryptMethod is how strings or streams are encrypted.
type cryptMethod uint8

const (
	cryptNone cryptMethod = iota
	cryptRC4
	cryptAESV2
	cryptAESV3
)

// decrypter is the standard security handler opened with the empty user
// password.
type decrypter struct {
	key          []byte
	strM, stmM   cryptMethod
	encObj       int
	r            int
	metaEncrypts bool
}

func newDecrypter(ed dict, id []byte) (*decrypter, error) {
	if ed.name("Filter") != "Standard" {
		return nil, ErrUnsupportedEncryption
	}
	v, _ := asInt(ed["V"])
	r, _ := asInt(ed["R"])
	o, _ := ed["O"].(pstring)
	u, _ := ed["U"].(pstring)
	p, _ := asInt(ed["P"])
	length := 40
	if l, ok := asInt(ed["Length"]); ok && l >= 40 && l <= 256 && l%8 == 0 {
		length = l
	}
	d := &decrypter{r: r, metaEncrypts: true, encObj: -1}
	if b, ok := ed["EncryptMetadata"].(bool); ok {
		d.metaEncrypts = b
	}
	switch v {
	case 1, 2:
		d.strM, d.stmM = cryptRC4, cryptRC4
	case 4, 5:
		cf, _ := ed["CF"].(dict)
		method := func(n name) cryptMethod {
			if n == "Identity" || n == "" {
				return cryptNone
			}
			sub, _ := cf[n].(dict)
			switch sub.name("CFM") {
			case "V2":
				return cryptRC4
			case "AESV2":
				return cryptAESV2
			case "AESV3":
				return cryptAESV3
			case "None":
				return cryptNone
			}
			return cryptNone
		}
		d.strM, d.stmM = method(ed.name("StrF")), method(ed.name("StmF"))
		if v == 4 {
			if sub, ok := cf[ed.name("StmF")].(dict); ok {
				if l, ok := asInt(sub["Length"]); ok && l >= 5 && l <= 16 {
					length = l * 8
				} else if ok && l >= 40 && l <= 128 {
					length = l
				}
			}
		}
	default:
		return nil, ErrUnsupportedEncryption
	}
	switch {
	case r >= 2 && r <= 4:
		if len(o) < 32 || len(u) < 16 {
			return nil, malformed("encryption dictionary lacks /O or /U")
		}
		n := length / 8
		if r == 2 {
			n = 5
		}
		h := md5.New()
		h.Write(passwordPad[:])
		h.Write([]byte(o[:32]))
		var pb [4]byte
		binary.LittleEndian.PutUint32(pb[:], uint32(int32(p)))
		h.Write(pb[:])
		h.Write(id)
		if r >= 4 && !d.metaEncrypts {
			h.Write([]byte{0xff, 0xff, 0xff, 0xff})
		}
		key := h.Sum(nil)
		if r >= 3 {
			for i := 0; i < 50; i++ {
				s := md5.Sum(key[:n])
				key = s[:]
			}
		}
		key = key[:n]
		if !checkUserR234(key, r, id, []byte(u)) {
			return nil, ErrNeedsPassword
		}
		d.key = key
	case r == 5 || r == 6:
		if len(u) < 48 {
			return nil, malformed("encryption dictionary lacks /U")
		}
		ue, _ := ed["UE"].(pstring)
		if len(ue) < 32 {
			return nil, malformed("encryption dictionary lacks /UE")
		}
		hash := func(salt []byte) []byte {
			if r == 5 {
				s := sha256.Sum256(salt)
				return s[:]
			}
			return hash2B(nil, salt, nil)
		}
		if !bytes.Equal(hash([]byte(u[32:40])), []byte(u[:32])) {
			return nil, ErrNeedsPassword
		}
		ik := hash([]byte(u[40:48]))
		blk, _ := aes.NewCipher(ik)
		key := make([]byte, 32)
		cipher.NewCBCDecrypter(blk, make([]byte, 16)).CryptBlocks(key, []byte(ue[:32]))
		d.key = key
	default:
		return nil, ErrUnsupportedEncryption
	}
	return d, nil
}

func checkUserR234(key []byte, r int, id, u []byte) bool {
	if r == 2 {
		c, _ := rc4.NewCipher(key)
		out := make([]byte, 32)
		c.XORKeyStream(out, passwordPad[:])
		return bytes.Equal(out, u[:min(32, len(u))])
	}
	h := md5.New()
	h.Write(passwordPad[:])
	h.Write(id)
	x := h.Sum(nil)
	k := make([]byte, len(key))
	for i := 0; i < 20; i++ {
		for j := range key {
			k[j] = key[j] ^ byte(i)
		}
		c, _ := rc4.NewCipher(k)
		c.XORKeyStream(x, x)
	}
	return bytes.Equal(x[:16], u[:16])
}

// hash2B is the hash of ISO 32000-2, 7.6.4.3.4 (revision 6).
func hash2B(pw, salt, udata []byte) []byte {
	h := sha256.New()
	h.Write(pw)
	h.Write(salt)
	h.Write(udata)
	k := h.Sum(nil)
	var e []byte
	for round := 0; ; round++ {
		k1 := make([]byte, 0, 64*(len(pw)+len(k)+len(udata)))
		for i := 0; i < 64; i++ {
			k1 = append(k1, pw...)
			k1 = append(k1, k...)
			k1 = append(k1, udata...)
		}
		blk, _ := aes.NewCipher(k[:16])
		e = make([]byte, len(k1))
		cipher.NewCBCEncrypter(blk, k[16:32]).CryptBlocks(e, k1)
		sum := 0
		for _, c := range e[:16] {
			sum += int(c)
		}
		switch sum % 3 {
		case 0:
			s := sha256.Sum256(e)
			k = s[:]
		case 1:
			s := sha512.Sum384(e)
			k = s[:]
		case 2:
			s := sha512.Sum512(e)
			k = s[:]
		}
		if round >= 63 && int(e[len(e)-1]) <= round-32 {
			break
		}
	}
	return k[:32]
}

// objKey is the key for one object (algorithm 1); revision 5 and 6 use the
// file key itself.
func (d *decrypter) objKey(r ref, m cryptMethod) []byte {
	if m == cryptAESV3 {
		return d.key
	}
	h := md5.New()
	h.Write(d.key)
	h.Write([]byte{byte(r.num), byte(r.num >> 8), byte(r.num >> 16), byte(r.gen), byte(r.gen >> 8)})
	if m == cryptAESV2 {
		h.Write([]byte("sAlT"))
	}
	return h.Sum(nil)[:min(len(d.key)+5, 16)]
}

func (d *decrypter) decrypt(b []byte, r ref, m cryptMethod) []byte {
	switch m {
	case cryptRC4:
		c, _ := rc4.NewCipher(d.objKey(r, m))
		out := make([]byte, len(b))
		c.XORKeyStream(out, b)
		return out
	case cryptAESV2, cryptAESV3:
		if len(b) < 32 || len(b)%16 != 0 {
			if len(b) < 32 {
				return nil
			}
			b = b[:len(b)/16*16]
		}
		blk, err := aes.NewCipher(d.objKey(r, m))
		if err != nil {
			return nil
		}
		out := make([]byte, len(b)-16)
		cipher.NewCBCDecrypter(blk, b[:16]).CryptBlocks(out, b[16:])
		if n := int(out[len(out)-1]); n >= 1 && n <= 16 {
			out = out[:len(out)-n]
		}
		return out
	}
	return b
}

func (d *decrypter) decryptStream(raw []byte, r ref, h dict) ([]byte, error) {
	m := d.stmM
	if h.name("Type") == "Metadata" && !d.metaEncrypts {
		return raw, nil
	}
	if fl, ok := h["Filter"].(array); ok && len(fl) > 0 && fl[0] == name("Crypt") {
		if p, ok := h["DecodeParms"].(array); ok && len(p) > 0 {
			if pd, ok := p[0].(dict); ok && pd.name("Name") == "Identity" {
				return raw, nil
			}
		}
		return raw, nil
	}
	return d.decrypt(raw, r, m), nil
}

// decryptStrings decrypts every string inside o, an object read from the
// file as object r.
func (d *decrypter) decryptStrings(o object, r ref, depth int) object {
	if depth > 64 {
		return o
	}
	switch v := o.(type) {
	case pstring:
		return pstring(d.decrypt([]byte(v), r, d.strM))
	case array:
		for i := range v {
			v[i] = d.decryptStrings(v[i], r, depth+1)
		}
	case dict:
		for k, x := range v {
			v[k] = d.decryptStrings(x, r, depth+1)
		}
	case *stream:
		d.decryptStrings(v.hdr, r, depth+1)
	}
	return o
}
