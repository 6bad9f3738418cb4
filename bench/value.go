package bench

import (
	"encoding/json"
	"fmt"

	"github.com/bytedance/sonic"

	"github.com/jsonmask/jsonmask"
)

// The Go types of twitter.json, as a service that returns its statuses would
// declare them: nullable fields are pointers, fields that are always null are
// any, and a retweet holds the status it retweets.
type (
	twitter struct {
		Statuses       []twitterStatus `json:"statuses"`
		SearchMetadata searchMetadata  `json:"search_metadata"`
	}
	searchMetadata struct {
		CompletedIn float64 `json:"completed_in"`
		MaxID       int64   `json:"max_id"`
		MaxIDStr    string  `json:"max_id_str"`
		NextResults string  `json:"next_results"`
		Query       string  `json:"query"`
		RefreshURL  string  `json:"refresh_url"`
		Count       int     `json:"count"`
		SinceID     int64   `json:"since_id"`
		SinceIDStr  string  `json:"since_id_str"`
	}
	twitterStatus struct {
		Metadata             statusMetadata `json:"metadata"`
		CreatedAt            string         `json:"created_at"`
		ID                   int64          `json:"id"`
		IDStr                string         `json:"id_str"`
		Text                 string         `json:"text"`
		Source               string         `json:"source"`
		Truncated            bool           `json:"truncated"`
		InReplyToStatusID    *int64         `json:"in_reply_to_status_id"`
		InReplyToStatusIDStr *string        `json:"in_reply_to_status_id_str"`
		InReplyToUserID      *int64         `json:"in_reply_to_user_id"`
		InReplyToUserIDStr   *string        `json:"in_reply_to_user_id_str"`
		InReplyToScreenName  *string        `json:"in_reply_to_screen_name"`
		User                 twitterUser    `json:"user"`
		Geo                  any            `json:"geo"`
		Coordinates          any            `json:"coordinates"`
		Place                any            `json:"place"`
		Contributors         any            `json:"contributors"`
		RetweetedStatus      *twitterStatus `json:"retweeted_status,omitempty"`
		RetweetCount         int            `json:"retweet_count"`
		FavoriteCount        int            `json:"favorite_count"`
		Entities             statusEntities `json:"entities"`
		Favorited            bool           `json:"favorited"`
		Retweeted            bool           `json:"retweeted"`
		PossiblySensitive    *bool          `json:"possibly_sensitive,omitempty"`
		Lang                 string         `json:"lang"`
	}
	statusMetadata struct {
		ResultType      string `json:"result_type"`
		IsoLanguageCode string `json:"iso_language_code"`
	}
	twitterUser struct {
		ID                             int64        `json:"id"`
		IDStr                          string       `json:"id_str"`
		Name                           string       `json:"name"`
		ScreenName                     string       `json:"screen_name"`
		Location                       string       `json:"location"`
		Description                    string       `json:"description"`
		URL                            *string      `json:"url"`
		Entities                       userEntities `json:"entities"`
		Protected                      bool         `json:"protected"`
		FollowersCount                 int          `json:"followers_count"`
		FriendsCount                   int          `json:"friends_count"`
		ListedCount                    int          `json:"listed_count"`
		CreatedAt                      string       `json:"created_at"`
		FavouritesCount                int          `json:"favourites_count"`
		UtcOffset                      *int         `json:"utc_offset"`
		TimeZone                       *string      `json:"time_zone"`
		GeoEnabled                     bool         `json:"geo_enabled"`
		Verified                       bool         `json:"verified"`
		StatusesCount                  int          `json:"statuses_count"`
		Lang                           string       `json:"lang"`
		ContributorsEnabled            bool         `json:"contributors_enabled"`
		IsTranslator                   bool         `json:"is_translator"`
		IsTranslationEnabled           bool         `json:"is_translation_enabled"`
		ProfileBackgroundColor         string       `json:"profile_background_color"`
		ProfileBackgroundImageURL      string       `json:"profile_background_image_url"`
		ProfileBackgroundImageURLHTTPS string       `json:"profile_background_image_url_https"`
		ProfileBackgroundTile          bool         `json:"profile_background_tile"`
		ProfileImageURL                string       `json:"profile_image_url"`
		ProfileImageURLHTTPS           string       `json:"profile_image_url_https"`
		ProfileBannerURL               string       `json:"profile_banner_url,omitempty"`
		ProfileLinkColor               string       `json:"profile_link_color"`
		ProfileSidebarBorderColor      string       `json:"profile_sidebar_border_color"`
		ProfileSidebarFillColor        string       `json:"profile_sidebar_fill_color"`
		ProfileTextColor               string       `json:"profile_text_color"`
		ProfileUseBackgroundImage      bool         `json:"profile_use_background_image"`
		DefaultProfile                 bool         `json:"default_profile"`
		DefaultProfileImage            bool         `json:"default_profile_image"`
		Following                      bool         `json:"following"`
		FollowRequestSent              bool         `json:"follow_request_sent"`
		Notifications                  bool         `json:"notifications"`
	}
	userEntities struct {
		Description urlEntities  `json:"description"`
		URL         *urlEntities `json:"url,omitempty"`
	}
	urlEntities struct {
		URLs []urlEntity `json:"urls"`
	}
	urlEntity struct {
		URL         string `json:"url"`
		ExpandedURL string `json:"expanded_url"`
		DisplayURL  string `json:"display_url"`
		Indices     []int  `json:"indices"`
	}
	statusEntities struct {
		Hashtags     []hashtag     `json:"hashtags"`
		Symbols      []any         `json:"symbols"`
		URLs         []urlEntity   `json:"urls"`
		UserMentions []userMention `json:"user_mentions"`
		Media        []media       `json:"media,omitempty"`
	}
	hashtag struct {
		Text    string `json:"text"`
		Indices []int  `json:"indices"`
	}
	userMention struct {
		ScreenName string `json:"screen_name"`
		Name       string `json:"name"`
		ID         int64  `json:"id"`
		IDStr      string `json:"id_str"`
		Indices    []int  `json:"indices"`
	}
	media struct {
		ID                int64           `json:"id"`
		IDStr             string          `json:"id_str"`
		Indices           []int           `json:"indices"`
		MediaURL          string          `json:"media_url"`
		MediaURLHTTPS     string          `json:"media_url_https"`
		URL               string          `json:"url"`
		DisplayURL        string          `json:"display_url"`
		ExpandedURL       string          `json:"expanded_url"`
		Type              string          `json:"type"`
		Sizes             map[string]size `json:"sizes"`
		SourceStatusID    int64           `json:"source_status_id,omitempty"`
		SourceStatusIDStr string          `json:"source_status_id_str,omitempty"`
	}
	size struct {
		W      int    `json:"w"`
		H      int    `json:"h"`
		Resize string `json:"resize"`
	}
)

// valueKinds are the Go values that BenchmarkAppendValue masks, each decoded
// from the same document: kind=struct into the twitter types above, kind=map
// into map[string]any, as a service that proxies JSON would hold it.
var valueKinds = []struct {
	name   string
	decode func(doc []byte) (any, error)
}{
	{"struct", func(doc []byte) (any, error) {
		v := new(twitter)
		err := json.Unmarshal(doc, v)
		return v, err
	}},
	{"map", func(doc []byte) (any, error) {
		var v map[string]any
		err := json.Unmarshal(doc, &v)
		return v, err
	}},
}

// A valueMasker appends the masked JSON encoding of a Go value to dst.
type valueMasker func(m *jsonmask.Mask, dst []byte, v any) ([]byte, error)

// valueImpls are the ways to mask a Go value: jsonmask's AppendValue, and
// the peers' way, encoding it whole and masking the encoding with Append.
// sonic's default configuration neither sorts map keys nor escapes HTML, so
// its encoding is not encoding/json's (AppendValue's contract), only the same
// JSON value: it is the fastest peer, not an equal one.
var valueImpls = []struct {
	name string
	mask valueMasker
}{
	{"jsonmask", func(m *jsonmask.Mask, dst []byte, v any) ([]byte, error) {
		return m.AppendValue(dst, v)
	}},
	{"stdlib", func(m *jsonmask.Mask, dst []byte, v any) ([]byte, error) {
		b, err := json.Marshal(v)
		if err != nil {
			return dst, err
		}
		return m.Append(dst, b)
	}},
	{"sonic", func(m *jsonmask.Mask, dst []byte, v any) ([]byte, error) {
		b, err := sonic.Marshal(v)
		if err != nil {
			return dst, err
		}
		return m.Append(dst, b)
	}},
}

// valueWorkload is the workload whose document and mask BenchmarkAppendValue
// uses.
const valueWorkload = "twitter/decision-fields"

// loadValueWorkload returns valueWorkload's document and its mask, compiled.
func loadValueWorkload() ([]byte, *jsonmask.Mask, error) {
	workloads, err := LoadWorkloads(testdataDir)
	if err != nil {
		return nil, nil, err
	}
	for i := range workloads {
		if w := &workloads[i]; w.Name == valueWorkload {
			doc, err := w.Input(testdataDir)
			if err != nil {
				return nil, nil, err
			}
			m, err := compile(w)
			return doc, m, err
		}
	}
	return nil, nil, fmt.Errorf("workloads.json has no workload %q", valueWorkload)
}
