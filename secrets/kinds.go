package secrets

// kinds.go names the kinds of credential the rules find, with the order in
// which an overlap between two findings is settled.

// kind is the internal number of a kind of credential; its order has no
// meaning. String gives the word callers see in detail.kind.
type kind uint8

const (
	kNone kind = iota
	kAWSAccessKeyID
	kAWSSecretAccessKey
	kGitHubToken
	kGitLabToken
	kNPMToken
	kHuggingFaceToken
	kSlackToken
	kStripeKey
	kGoogleAPIKey
	kOpenAIAPIKey
	kAnthropicAPIKey
	kSendGridAPIKey
	kTelegramBotToken
	kTwilioKey
	kJWT
	kBearerToken
	kBasicAuth
	kAzureAccountKey
	kPrivateKey
	kURLPassword
	kPasswordValue
	kindCount
)

func (k kind) String() string {
	switch k {
	case kAWSAccessKeyID:
		return "aws_access_key_id"
	case kAWSSecretAccessKey:
		return "aws_secret_access_key"
	case kGitHubToken:
		return "github_token"
	case kGitLabToken:
		return "gitlab_token"
	case kNPMToken:
		return "npm_token"
	case kHuggingFaceToken:
		return "huggingface_token"
	case kSlackToken:
		return "slack_token"
	case kStripeKey:
		return "stripe_key"
	case kGoogleAPIKey:
		return "google_api_key"
	case kOpenAIAPIKey:
		return "openai_api_key"
	case kAnthropicAPIKey:
		return "anthropic_api_key"
	case kSendGridAPIKey:
		return "sendgrid_api_key"
	case kTelegramBotToken:
		return "telegram_bot_token"
	case kTwilioKey:
		return "twilio_key"
	case kJWT:
		return "jwt"
	case kBearerToken:
		return "bearer_token"
	case kBasicAuth:
		return "basic_auth"
	case kAzureAccountKey:
		return "azure_account_key"
	case kPrivateKey:
		return "private_key"
	case kURLPassword:
		return "url_password"
	case kPasswordValue:
		return "password_value"
	}
	return "unknown"
}

// priority decides between candidates that start at the same place: the
// more specific shape names the finding ("password=ghp_…" is a GitHub
// token, "Bearer eyJ…" a JWT).
func (k kind) priority() int {
	switch k {
	case kPrivateKey:
		return 100
	case kAzureAccountKey, kAWSSecretAccessKey:
		return 85
	case kJWT:
		return 80
	case kBasicAuth:
		return 70
	case kBearerToken:
		return 60
	case kURLPassword:
		return 50
	case kPasswordValue:
		return 40
	}
	return 90 // the kinds with a fixed prefix
}
