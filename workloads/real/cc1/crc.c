/* rvsim's real suite (suite/real.toml): the small C file cc1 compiles at
 * -O2 for the test input: CRC-32 (table-driven and bitwise) and Adler-32
 * over a generated buffer, and a main that checks them. Only <stdint.h>
 * and <stddef.h>, so the run is mostly the compiler's middle and back
 * end, not header parsing. */
#include <stddef.h>
#include <stdint.h>

static uint32_t table[256];

static void crc_init(void) {
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
}

uint32_t crc32_table(const uint8_t *p, size_t n) {
	uint32_t c = 0xffffffffu;
	while (n--)
		c = table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}

uint32_t crc32_bitwise(const uint8_t *p, size_t n) {
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & -(c & 1));
	}
	return ~c;
}

uint32_t adler32(const uint8_t *p, size_t n) {
	uint32_t a = 1, b = 0;
	for (size_t i = 0; i < n; i++) {
		a = (a + p[i]) % 65521;
		b = (b + a) % 65521;
	}
	return (b << 16) | a;
}

static uint8_t buf[4096];

int main(void) {
	uint64_t x = 88172645463325252ull;
	for (size_t i = 0; i < sizeof buf; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[i] = (uint8_t)x;
	}
	crc_init();
	if (crc32_table(buf, sizeof buf) != crc32_bitwise(buf, sizeof buf))
		return 1;
	return (int)(adler32(buf, sizeof buf) & 0x7f) == 200;
}
