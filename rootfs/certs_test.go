package rootfs

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/pem"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// selfSigned returns a PEM certificate for the subject, its name's
// attributes as given (their string types included).
func selfSigned(t *testing.T, subject pkix.RDNSequence, serial int64) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	raw, err := asn1.Marshal(subject)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), RawSubject: raw,
		NotBefore: time.Unix(0, 0), NotAfter: time.Unix(4e9, 0), IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// atv is one attribute with its value in the given string type.
func atv(oid asn1.ObjectIdentifier, tag int, value []byte) pkix.AttributeTypeAndValue {
	return pkix.AttributeTypeAndValue{Type: oid, Value: asn1.RawValue{Class: asn1.ClassUniversal, Tag: tag, Bytes: value}}
}

var (
	oidCN = asn1.ObjectIdentifier{2, 5, 4, 3}
	oidO  = asn1.ObjectIdentifier{2, 5, 4, 10}
	oidC  = asn1.ObjectIdentifier{2, 5, 4, 6}
)

// caCertificates on a root of made-up certificates: the configuration
// lists them all, the bundle joins them in its order (a missing last
// newline added), each has its NAME.pem link, and the HASH.N links are
// those the host's openssl rehash makes of the same files (subject
// hashes of names in several string types and letter cases, a shared
// subject numbered .0 and .1, a certificate twice linked once).
func TestCACertificates(t *testing.T) {
	openssl := hostOpenssl(t)
	root := t.TempDir()
	share := filepath.Join(root, "usr/share/ca-certificates/mozilla")
	require.NoError(t, os.MkdirAll(share, 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "usr/sbin"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "usr/sbin/update-ca-certificates"), nil, 0o755))
	bmp := []byte{0, 'B', 0, 'm', 0, 'P', 0, ' ', 0, ' ', 0, 'X'}
	same := pkix.RDNSequence{{atv(oidCN, asn1.TagPrintableString, []byte("Shared Root"))}}
	dup := selfSigned(t, pkix.RDNSequence{{atv(oidCN, asn1.TagUTF8String, []byte("Twice"))}}, 9)
	certs := map[string][]byte{
		"Upper  Case (Root), CA.crt": selfSigned(t, pkix.RDNSequence{
			{atv(oidC, asn1.TagPrintableString, []byte("US"))},
			{atv(oidO, asn1.TagPrintableString, []byte("  ACME   Corp \t"))},
			{atv(oidCN, asn1.TagUTF8String, []byte("Root CA Ünïcode"))}}, 1),
		"bmp.crt":      selfSigned(t, pkix.RDNSequence{{atv(oidCN, asn1.TagBMPString, bmp)}}, 2),
		"ia5.crt":      selfSigned(t, pkix.RDNSequence{{atv(oidCN, asn1.TagIA5String, []byte("Mail.Example"))}}, 3),
		"multi.crt":    selfSigned(t, pkix.RDNSequence{{atv(oidO, asn1.TagUTF8String, []byte("O")), atv(oidCN, asn1.TagUTF8String, []byte("MV"))}}, 4),
		"shared-a.crt": selfSigned(t, same, 5),
		"shared-b.crt": selfSigned(t, same, 6),
		"twice-1.crt":  dup,
		"twice-2.crt":  dup,
		"no-newline.crt": []byte(strings.TrimSuffix(string(selfSigned(t,
			pkix.RDNSequence{{atv(oidCN, asn1.TagT61String, []byte("T61 \xe9t\xe9"))}}, 7)), "\n")),
	}
	var names []string
	for n, b := range certs {
		require.NoError(t, os.WriteFile(filepath.Join(share, n), b, 0o644))
		names = append(names, n)
	}
	sort.Strings(names)
	require.NoError(t, caCertificates(root))

	conf, err := os.ReadFile(filepath.Join(root, "etc/ca-certificates.conf"))
	require.NoError(t, err)
	assert.Equal(t, caConfHeader+"mozilla/"+strings.Join(names, "\nmozilla/")+"\n", string(conf))
	var bundle strings.Builder
	for _, n := range names {
		bundle.WriteString(strings.TrimSuffix(string(certs[n]), "\n") + "\n")
	}
	got, err := os.ReadFile(filepath.Join(root, "etc/ssl/certs/ca-certificates.crt"))
	require.NoError(t, err)
	assert.Equal(t, bundle.String(), string(got))
	link, err := os.Readlink(filepath.Join(root, "etc/ssl/certs/Upper__Case_=Root=__CA.pem"))
	require.NoError(t, err)
	assert.Equal(t, "/usr/share/ca-certificates/mozilla/Upper  Case (Root), CA.crt", link)

	// The host's openssl rehash on the same files under the same names.
	want := t.TempDir()
	ents, err := os.ReadDir(filepath.Join(root, "etc/ssl/certs"))
	require.NoError(t, err)
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".pem") {
			target, err := os.Readlink(filepath.Join(root, "etc/ssl/certs", e.Name()))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(want, e.Name()), certs[filepath.Base(target)], 0o644))
		}
	}
	out, err := exec.Command(openssl, "rehash", want).CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Equal(t, hashLinks(t, want), hashLinks(t, filepath.Join(root, "etc/ssl/certs")))
	assert.Len(t, hashLinks(t, want), 8, "nine files, one certificate twice")

	// A second run leaves a root with a bundle alone; a root without the
	// package gets nothing.
	require.NoError(t, caCertificates(root))
	empty := t.TempDir()
	require.NoError(t, caCertificates(empty))
	_, err = os.Stat(filepath.Join(empty, "etc"))
	assert.True(t, os.IsNotExist(err))
}

// hashLinks lists a directory's HASH.N links with their targets.
func hashLinks(t *testing.T, dir string) []string {
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range ents {
		if len(e.Name()) > 9 && e.Name()[8] == '.' && !strings.HasSuffix(e.Name(), ".pem") {
			target, err := os.Readlink(filepath.Join(dir, e.Name()))
			require.NoError(t, err)
			out = append(out, e.Name()+" -> "+target)
		}
	}
	return out
}

// subjectHash against openssl x509 -subject_hash on the host's own CA
// certificates, Mozilla's set, when it has them.
func TestSubjectHashMozilla(t *testing.T) {
	openssl := hostOpenssl(t)
	files, _ := filepath.Glob("/usr/share/ca-certificates/mozilla/*.crt")
	if len(files) == 0 {
		needHost(t, "no CA certificates on the host (ca-certificates: run 'make setup')")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		blk, _ := pem.Decode(b)
		require.NotNil(t, blk, f)
		subject, err := rawSubject(blk.Bytes)
		require.NoError(t, err, f)
		c, err := x509.ParseCertificate(blk.Bytes)
		require.NoError(t, err, f)
		assert.Equal(t, c.RawSubject, subject, f)
		h, err := subjectHash(subject)
		require.NoError(t, err, f)
		out, err := exec.Command(openssl, "x509", "-noout", "-subject_hash", "-in", f).Output()
		require.NoError(t, err, f)
		assert.Equal(t, strings.TrimSpace(string(out)), fmt.Sprintf("%08x", h), f)
	}
}

// hostOpenssl returns the host's openssl, the oracle of these tests.
func hostOpenssl(t *testing.T) string {
	openssl, err := exec.LookPath("openssl")
	if err != nil {
		needHost(t, "no openssl on the host (run 'make setup')")
	}
	return openssl
}

// needHost skips a test that lacks a host tool, or fails it under
// RVSIM_REQUIRE_ARTIFACTS=1 (make test), where setup has installed it.
func needHost(t *testing.T, msg string) {
	t.Helper()
	if os.Getenv("RVSIM_REQUIRE_ARTIFACTS") == "1" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}
