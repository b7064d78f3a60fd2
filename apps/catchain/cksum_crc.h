/* SPDX-License-Identifier: MIT */
/*
 * The CRC of POSIX cksum: CRC-32 with polynomial 0x04C11DB7, most
 * significant bit first, starting at 0, over the data and then the
 * length in as few bytes as it takes (least significant first), the
 * result inverted.
 *
 *   uint32_t crc = 0;
 *   crc = cksum_update(crc, buf, len);	(as often as there is data)
 *   printf("%u %llu\n", cksum_final(crc, size), size);
 */
#ifndef CKSUM_CRC_H
#define CKSUM_CRC_H

#include <stddef.h>
#include <stdint.h>

static inline const uint32_t *cksum_table(void)
{
	static uint32_t table[256];
	static int built;
	uint32_t i, c;
	int bit;

	if (built)
		return table;
	for (i = 0; i < 256; i++) {
		c = i << 24;
		for (bit = 0; bit < 8; bit++)
			c = c & 0x80000000U ? (c << 1) ^ 0x04C11DB7U : c << 1;
		table[i] = c;
	}
	built = 1;
	return table;
}

static inline uint32_t cksum_update(uint32_t crc, const void *buf, size_t len)
{
	const uint32_t *t = cksum_table();
	const unsigned char *p = buf;

	while (len--)
		crc = (crc << 8) ^ t[(crc >> 24) ^ *p++];
	return crc;
}

static inline uint32_t cksum_final(uint32_t crc, uint64_t size)
{
	const uint32_t *t = cksum_table();

	for (; size; size >>= 8)
		crc = (crc << 8) ^ t[((crc >> 24) ^ size) & 0xff];
	return ~crc;
}

#endif /* CKSUM_CRC_H */
