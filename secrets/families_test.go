package secrets

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// familyCase is one row of TestREQ_PRIV_002_TokenFamilies: the text is
// before+value+after; a positive (kind != "") must give exactly one finding
// of that kind covering value, a negative none.
type familyCase struct {
	family, kind         string
	before, value, after string
}

// familyCases builds the table. Every random part is drawn by the seeded
// generator of the corpus, with the real alphabet and length, so no
// credential-shaped literal sits in the source.
func familyCases(t *testing.T) []familyCase {
	g := newGenerator(20261201)
	d := func(class string, n int) string {
		v, err := g.draw(class, n)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	b64 := base64.StdEncoding.EncodeToString
	b64u := base64.RawURLEncoding.EncodeToString
	jws := g.jwt()
	jwe := b64u([]byte(`{"alg":"RSA-OAEP","enc":"A256GCM"}`)) + "." + d("u", 342) + "." + d("u", 16) + "." + d("u", 40) + "." + d("u", 22)
	// A JWT in base64, and one in base64 wrapped into lines of 76 as
	// base64(1) writes it.
	jwtStd := b64([]byte(g.jwt()))
	var wrapped strings.Builder
	for e := b64([]byte(g.jwt() + "\n")); e != ""; {
		n := min(76, len(e))
		if wrapped.Len() > 0 {
			wrapped.WriteString("\n")
		}
		wrapped.WriteString(e[:n])
		e = e[n:]
	}
	jwtWrapped := wrapped.String()
	pos := func(family, kind, before, value, after string) familyCase {
		return familyCase{family, kind, before, value, after}
	}
	neg := func(family, text string) familyCase {
		return familyCase{family: family, before: text}
	}
	return append(serviceTokenCases(d, pos, neg), formatCases(d, pos, neg, jws, jwe, jwtStd, jwtWrapped)...)
}

// serviceTokenCases are the cases of the tokens of one service each, AWS
// to Slack.
func serviceTokenCases(d func(string, int) string, pos func(family, kind, before, value, after string) familyCase, neg func(family, text string) familyCase) []familyCase {
	return []familyCase{
		// aws_access_key_id: every prefix of an access key id.
		pos("aws AKIA long-term key", "aws_access_key_id", "aws s3 ls fails for ", "AKIA"+d("b32", 16), " why"),
		pos("aws ASIA temporary key", "aws_access_key_id", "sts gave ", "ASIA"+d("b32", 16), ""),
		pos("aws ABIA service bearer token", "aws_access_key_id", "is ", "ABIA"+d("b32", 16), " a bearer token id"),
		pos("aws ACCA context credential", "aws_access_key_id", "Schlüssel ", "ACCA"+d("b32", 16), " ungültig"),
		pos("aws A3T oldest key", "aws_access_key_id", "old key ", "A3T"+d("AN", 1)+d("b32", 16), ""),
		pos("aws abia in lower case", "aws_access_key_id", "", "abia"+d("b32l", 16), " lower"),
		pos("aws a3t in lower case", "aws_access_key_id", "キー ", "a3t"+d("al", 1)+d("b32l", 16), ""),
		neg("aws ABIA and a 16-letter word", "ABIA"+"PACIFICREGIONALF"),
		neg("aws ACCA and a 16-letter word", "ACCA"+"DEMICCONFERENCES"),
		neg("aws A3T one short", "A3TX"+d("b32", 15)),
		neg("aws identifier of a role", "AROA"+d("b32", 16)),
		// aws_secret_access_key: by its name.
		pos("aws secret access key", "aws_secret_access_key", "aws_secret_access_key=", d("b64", 40), ""),
		// github_token: every family.
		pos("github ghp_ personal token", "github_token", "git push: ", "ghp_"+d("an", 36), ""),
		pos("github gho_ oauth token", "github_token", "", "gho_"+d("an", 36), " expired"),
		pos("github ghu_ user-to-server token", "github_token", "token ", "ghu_"+d("an", 36), ""),
		pos("github ghs_ server-to-server token", "github_token", "GITHUB_TOKEN=", "ghs_"+d("an", 36), ""),
		pos("github ghr_ refresh token", "github_token", "refresh ", "ghr_"+d("an", 36), ""),
		pos("github github_pat_ fine-grained", "github_token", "", "github_pat_"+d("an", 22)+"_"+d("an", 59), " 403"),
		// gitlab_token: every family GitLab issues.
		pos("gitlab glpat- personal token", "gitlab_token", "", "glpat-"+d("u", 20), " 401"),
		pos("gitlab glpat- routable", "gitlab_token", "token ", "glpat-"+d("u", 40)+".01."+d("al", 9), ""),
		pos("gitlab gloas- oauth application secret", "gitlab_token", "secret ", "gloas-"+d("an", 64), ""),
		pos("gitlab gldt- deploy token", "gitlab_token", "deploy token ", "gldt-"+d("u", 20), " cannot pull"),
		pos("gitlab glrt- runner token", "gitlab_token", "", "glrt-"+d("u", 20), ""),
		pos("gitlab glrt- routable runner token", "gitlab_token", "runner ", "glrt-t1_"+d("u", 30)+"."+d("al", 9), ""),
		pos("gitlab glrtr- runner registration token", "gitlab_token", "", "glrtr-"+d("u", 20), ""),
		pos("gitlab GR1348941 legacy registration token", "gitlab_token", "gitlab-runner register --registration-token ", "GR1348941"+d("u", 20), ""),
		pos("gitlab glcbt- job token", "gitlab_token", "CI_JOB_TOKEN ", "glcbt-"+d("an", 5)+"_"+d("u", 20), ""),
		pos("gitlab glptt- pipeline trigger token", "gitlab_token", "curl -F token=", "glptt-"+d("hex", 40), " https://gitlab.example.com/api/v4/projects/1/trigger/pipeline"),
		pos("gitlab glft- feed token", "gitlab_token", "https://gitlab.example.com/dashboard/issues.atom?feed_token=", "glft-"+d("u", 20), ""),
		pos("gitlab glimt- incoming mail token", "gitlab_token", "incoming+", "glimt-"+d("an", 25), "@mail.example.com"),
		pos("gitlab glagent- kubernetes agent token", "gitlab_token", "agent token ", "glagent-"+d("an", 50), ""),
		pos("gitlab glsoat- scim token", "gitlab_token", "SCIM ", "glsoat-"+d("u", 20), ""),
		pos("gitlab glffct- feature flags client token", "gitlab_token", "", "glffct-"+d("u", 20), " unleash"),
		pos("gitlab _gitlab_session cookie", "gitlab_token", "Cookie: _gitlab_session=", d("al", 32), "; path=/"),
		neg("gitlab prefix and words", "tokens start with glpat- followed by twenty characters"),
		neg("gitlab glimt- one short", "glimt-"+d("an", 24)),
		neg("gitlab glimt- one long", "glimt-"+d("an", 26)),
		neg("gitlab glagent- one short", "glagent-"+d("an", 49)),
		neg("gitlab glptt- 40 that are not hexadecimal", "glptt-"+d("hex", 39)+"z"),
		neg("gitlab glcbt- partition of 6", "glcbt-"+d("an", 6)+"_"+d("u", 20)),
		neg("gitlab GR1348941 one short", "GR1348941"+d("an", 19)),
		neg("gitlab session one short", "_gitlab_session="+d("al", 31)),
		neg("gitlab session in upper case hex", "_gitlab_session="+strings.ToUpper(d("hex", 32))),
		// npm_token.
		pos("npm npm_ access token", "npm_token", "//registry.npmjs.org/:_authToken=", "npm_"+d("an", 36), ""),
		// huggingface_token: user and organization tokens.
		pos("huggingface hf_ user token", "huggingface_token", "HF_TOKEN=", "hf_"+d("an", 34), ""),
		pos("huggingface api_org_ organization token", "huggingface_token", "トークン ", "api_org_"+d("an", 34), " が無効"),
		neg("huggingface api_org_ in upper case", "API_ORG_"+strings.ToUpper(d("an", 34))),
		neg("huggingface api_org_ a setting", "api_org_settings_default"),
		// slack_token: every token family and webhook.
		pos("slack xoxb- bot token", "slack_token", "invalid_auth ", "xoxb-"+d("d", 12)+"-"+d("d", 13)+"-"+d("an", 24), ""),
		pos("slack xoxb- legacy bot token", "slack_token", "", "xoxb-"+d("d", 14)+"-"+d("an", 18), " legacy"),
		pos("slack xoxp- user token", "slack_token", "", "xoxp-"+d("d", 12)+"-"+d("d", 12)+"-"+d("d", 13)+"-"+d("hex", 32), ""),
		pos("slack xoxe.xoxp- configuration token", "slack_token", "rotate ", "xoxe.xoxp-1-"+d("an", 163), ""),
		pos("slack xoxe- configuration refresh token", "slack_token", "", "xoxe-1-"+d("an", 146), ""),
		pos("slack xoxa- workspace token", "slack_token", "", "xoxa-2-"+d("an", 12), " workspace"),
		pos("slack xoxr- workspace refresh token", "slack_token", "refresh ", "xoxr-"+d("an", 20), ""),
		pos("slack xoxo- legacy token", "slack_token", "", "xoxo-"+d("d", 10)+"-"+d("d", 10)+"-"+d("d", 10)+"-"+d("hex", 32), ""),
		pos("slack xoxs- legacy token", "slack_token", "токен ", "xoxs-"+d("d", 10)+"-"+d("d", 10)+"-"+d("d", 10)+"-"+d("hex", 64), " не работает"),
		pos("slack xapp- app-level token", "slack_token", "SLACK_APP_TOKEN=", "xapp-1-A"+d("AN", 10)+"-"+d("d", 13)+"-"+d("hex", 64), ""),
		pos("slack incoming webhook", "slack_token", "https://", "hooks.slack.com/services/T"+d("AN", 10)+"/B"+d("AN", 10)+"/"+d("an", 24), ""),
		pos("slack workflow webhook", "slack_token", "POST https://", "hooks.slack.com/workflows/T"+d("AN", 10)+"/A"+d("AN", 10)+"/"+d("d", 18)+"/"+d("an", 24), " 200"),
		pos("slack trigger webhook", "slack_token", "https://", "hooks.slack.com/triggers/T"+d("AN", 10)+"/"+d("d", 13)+"/"+d("hex", 32), ""),
		neg("slack xapp- and words", "xapp-store-download-for-windows-and-mac"),
		neg("slack xoxo and words", "xoxo-gossip-girl-season-one-quotes-and-more"),
		neg("slack xoxo- without a hexadecimal tail", "xoxo-1-2-3-"+"notahexadecimaltailatall"),
		neg("slack xoxr- and a word", "xoxr-refreshes"),
		neg("slack xoxb- and hyphenated words", "xoxb-this-is-not-a-real-token-at-all"),
		neg("slack workflow guide", "hooks.slack.com/workflows/ setup guide"),
		neg("slack trigger path too short", "hooks.slack.com/triggers/T"+d("AN", 10)+"/"+d("d", 5)+"/"+d("hex", 20)),
	}
}

// formatCases are the cases of Stripe to passwords: keys of other
// services, JWTs in every form, and the formats not tied to one service.
func formatCases(d func(string, int) string, pos func(family, kind, before, value, after string) familyCase, neg func(family, text string) familyCase, jws, jwe, jwtStd, jwtWrapped string) []familyCase {
	b64 := base64.StdEncoding.EncodeToString
	b64u := base64.RawURLEncoding.EncodeToString
	return []familyCase{
		// stripe_key: secret and restricted keys in every mode.
		pos("stripe sk_live_", "stripe_key", "", "sk_live_"+d("an", 24), ""),
		pos("stripe sk_test_", "stripe_key", "", "sk_test_"+d("an", 99), " test mode"),
		pos("stripe sk_prod_", "stripe_key", "key ", "sk_prod_"+d("an", 24), ""),
		pos("stripe rk_live_", "stripe_key", "restricted ", "rk_live_"+d("an", 24), ""),
		pos("stripe rk_test_", "stripe_key", "", "rk_test_"+d("an", 30), ""),
		pos("stripe rk_prod_", "stripe_key", "", "rk_prod_"+d("an", 40), ""),
		neg("stripe publishable key", "pk_live_"+d("an", 24)),
		neg("stripe sk_prod_ and a word", "sk_prod_environment"),
		// google_api_key.
		pos("google AIza api key", "google_api_key", "https://maps.googleapis.com/maps/api/geocode/json?key=", "AIza"+d("u", 35), ""),
		// openai_api_key: every key family.
		pos("openai sk-proj- project key", "openai_api_key", "", "sk-proj-"+d("u", 74)+"T3BlbkFJ"+d("u", 74), " 429"),
		pos("openai sk-svcacct- service account key", "openai_api_key", "", "sk-svcacct-"+d("u", 58)+"T3BlbkFJ"+d("u", 58), ""),
		pos("openai sk-admin- admin key", "openai_api_key", "admin ", "sk-admin-"+d("u", 58)+"T3BlbkFJ"+d("u", 58), ""),
		pos("openai sk- legacy key", "openai_api_key", "", "sk-"+d("an", 20)+"T3BlbkFJ"+d("an", 20), ""),
		// anthropic_api_key: api and admin keys.
		pos("anthropic sk-ant-api03-", "anthropic_api_key", "x-api-key: ", "sk-ant-api03-"+d("u", 93)+"AA", ""),
		pos("anthropic sk-ant-admin01-", "anthropic_api_key", "", "sk-ant-admin01-"+d("u", 93)+"AA", ""),
		// sendgrid_api_key, telegram_bot_token, twilio_key.
		pos("sendgrid SG. api key", "sendgrid_api_key", "", "SG."+d("u", 22)+"."+d("u", 43), ""),
		pos("telegram bot token", "telegram_bot_token", "", d("d", 10)+":AA"+d("u", 33), " invalid"),
		pos("telegram bot token in a url", "telegram_bot_token", "https://api.telegram.org/bot", d("d", 9)+":AA"+d("u", 33), "/getMe"),
		pos("twilio SK api key", "twilio_key", "TWILIO_API_KEY=", "SK"+d("hex", 32), ""),
		// jwt: signed, encrypted and base64-encoded.
		pos("jwt signed", "jwt", "decode ", jws, " online"),
		pos("jwt encrypted", "jwt", "", jwe, ""),
		pos("jwt base64", "jwt", "token=", jwtStd, "&x=1"),
		pos("jwt base64 wrapped into lines", "jwt", "echo ", jwtWrapped, " | base64 -d"),
		neg("jwt header alone", b64u([]byte(`{"alg":"HS256","typ":"JWT"}`))),
		neg("jwt base64 of a header alone", b64([]byte(b64u([]byte(`{"alg":"HS256","typ":"JWT"}`))))),
		neg("jwt base64 of a header and prose", b64([]byte("eyJhbGciOiJIUzI1NiJ9.this is. not a token"))),
		neg("jwt base64 glued to base64", "QUJD"+b64([]byte(jws))),
		// bearer_token, basic_auth, azure_account_key.
		pos("bearer token", "bearer_token", "Authorization: Bearer ", d("an", 40), ""),
		pos("basic authorization", "basic_auth", "Authorization: Basic ", b64([]byte("alice:"+d("an", 12))), ""),
		pos("azure storage account key", "azure_account_key", "DefaultEndpointsProtocol=https;AccountName=x;AccountKey=", d("b64", 86)+"==", ";EndpointSuffix=core.windows.net"),
		// private_key: every label the alphabet allows.
		pos("private key rsa", "private_key", "", "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA"+d("b64", 48)+"\n-----END RSA PRIVATE KEY-----", " how to load"),
		pos("private key openssh", "private_key", "", "-----BEGIN OPENSSH PRIVATE KEY-----", " error"),
		pos("private key pgp block", "private_key", "", "-----BEGIN PGP PRIVATE KEY BLOCK-----", ""),
		pos("private key label with '-' and '_'", "private_key", "", "-----BEGIN X9_62-EC PRIVATE KEY-----", ""),
		neg("public key", "-----BEGIN PUBLIC KEY-----"),
		neg("certificate", "-----BEGIN CERTIFICATE-----\nMIIB"+d("b64", 60)+"\n-----END CERTIFICATE-----"),
		// url_password: any password in the user information of a URL.
		pos("url password, single-label host (the book)", "url_password", "https://user:", "password", "@host/"),
		pos("url password with a port", "url_password", "postgres://app:", d("an", 12), "@db.example.com:5432/app"),
		pos("url password with an ipv6 host", "url_password", "https://deploy:", d("an", 10), "@[2001:db8::1]:8443/"),
		pos("url password of words", "url_password", "amqp://guest:", "guest", "@localhost:5672/"),
		pos("url password in Japanese", "url_password", "https://ユーザー:", "パスワード", "@example.jp/"),
		neg("url user without a password", "https://user@host/"),
		neg("url user with an empty password", "https://user:@host/"),
		neg("url masked password", "https://user:*****@host/"),
		neg("url template password", "redis://:${REDIS_PASSWORD}@redis:6379/0"),
		neg("url format verb", `fmt.Sprintf("postgres://%s:%s@%s/%s", u, p, h, d)`),
		neg("url host and port", "https://host.example:8080@mirror/"),
		neg("url ipv6 host without user", "https://[2001:db8::1]:8443/path?q=a:b@c"),
		neg("url user and ipv6 host", "ssh://git@[2001:db8::1]:22/repo.git"),
		// password_value.
		pos("password value", "password_value", "DB_PASSWORD=", "s3cr3t!!"+d("an", 4), ""),
		neg("password value that names a file", "kubectl create secret generic db --from-file=password=./password.txt"),
		neg("password value that is an absolute path", "password=/run/secrets/db_password"),
	}
}

// TestREQ_PRIV_002_TokenFamilies: every token family the check knows, for
// every kind, is found with its kind and its exact span in runes, and the
// near misses of each family (one character short or long, the wrong
// alphabet, words after a prefix, placeholders) pass.
func TestREQ_PRIV_002_TokenFamilies(t *testing.T) {
	cases := familyCases(t)
	kinds := map[string]bool{}
	for _, c := range cases {
		text := c.before + c.value + c.after
		got := find(text)
		want := ""
		if c.kind != "" {
			kinds[c.kind] = true
			start := utf8.RuneCountInString(c.before)
			want = fmt.Sprintf("%s@%d-%d", c.kind, start, start+utf8.RuneCountInString(c.value))
		}
		if got != want {
			t.Errorf("%s: got %q, want %q", c.family, got, want)
		}
	}
	// Every kind of the vocabulary has a row.
	for k := kind(1); k < kindCount; k++ {
		if !kinds[k.String()] {
			t.Errorf("no family of %s is in the table", k)
		}
	}
}

// TestREQ_PRIV_002_EveryGitLabPrefixHasAFamilyRow keeps the table and the
// rule's list of GitLab prefixes together: a prefix added to the rule
// without a positive row fails here.
func TestREQ_PRIV_002_EveryGitLabPrefixHasAFamilyRow(t *testing.T) {
	cases := familyCases(t)
	for _, f := range gitlabFamilies {
		ok := false
		for _, c := range cases {
			ok = ok || c.kind == "gitlab_token" && strings.HasPrefix(c.value, f.prefix)
		}
		if !ok {
			t.Errorf("no positive row for the GitLab prefix %s", f.prefix)
		}
	}
}

// TestREQ_PRIV_002_OrdinaryTextPasses: code, prose in several languages
// and ordinary URLs (testdata/ordinary.txt) give no finding, and MaskText
// leaves them unchanged.
func TestREQ_PRIV_002_OrdinaryTextPasses(t *testing.T) {
	lines := readCorpus(t, "ordinary.txt", false)
	if len(lines) < 100 {
		t.Errorf("ordinary.txt has %d lines, want at least 100", len(lines))
	}
	for _, c := range lines {
		if got := find(c.text); got != "" {
			t.Errorf("ordinary.txt:%d: found %s in %q", c.line, got, c.text)
		}
		if masked, n := MaskText(c.text); n != 0 || masked != c.text {
			t.Errorf("ordinary.txt:%d: MaskText changed ordinary text", c.line)
		}
	}
}

// TestREQ_PRIV_002_Base64JWTStretchIsReadOnce: lines of base64 longer than
// the bound are read once, not again from every line inside them (which
// would make a scan quadratic): an attempt that stops at the bound marks
// the stretch as read up to where it stopped.
func TestREQ_PRIV_002_Base64JWTStretchIsReadOnce(t *testing.T) {
	text := strings.Repeat("ZXlK\n", 2*maxJWTBase64/4)
	sc := scanner{s: text}
	sc.jwtBase64(0)
	if sc.b64End <= maxJWTBase64 {
		t.Fatalf("after an attempt over the bound, b64End = %d, want past %d", sc.b64End, maxJWTBase64)
	}
	if Scan(text) != nil {
		t.Errorf("lines of ZXlK are not a JWT")
	}
}
