/*
 * Byte-order helpers: loads and stores are inverse and big-endian.
 */
#include "../../parsers/bytes.h"
#include "check.h"

void
suite_bytes(void)
{
	uint8_t b[8] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x88 };
	uint8_t o[8];

	CHECK("be16", be16(b) == 0x0102);
	CHECK("be32", be32(b) == 0x01020304u);
	CHECK("be64", be64(b) == 0x0102030405060788ull);
	CHECK("le16", le16(b) == 0x0201);
	CHECK("le32", le32(b) == 0x04030201u);
	put_be64(o, 0x0102030405060788ull);
	CHECK("put_be64", be64(o) == 0x0102030405060788ull && o[0] == 1);
	put_be32(o, 0xdeadbeefu);
	CHECK("put_be32", o[0] == 0xde && o[3] == 0xef);
	put_be16(o, 0xbeef);
	CHECK("put_be16", o[0] == 0xbe && o[1] == 0xef);
}
