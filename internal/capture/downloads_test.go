package capture

import "testing"

func TestDownloadListing(t *testing.T) {
	var none *Downloads
	l := none.Listing()
	if l.Handling != "unmanaged" || l.Note == "" || l.Downloads == nil || len(l.Downloads) != 0 {
		t.Fatalf("not watched: %+v", l)
	}
	l = UnmanagedDownloads("the app saves them").Listing()
	if l.Handling != "unmanaged" || l.Note != "the app saves them" || l.Downloads == nil {
		t.Fatalf("unmanaged: %+v", l)
	}
}
