import unittest

from source import TokenMaker, token_maker_from_settings


class TokenMakerTest(unittest.TestCase):
    def setUp(self):
        self.maker = TokenMaker("api")

    def test_issued_tokens_are_well_formed_and_distinct(self):
        tokens = {self.maker.issue() for _ in range(200)}
        self.assertEqual(len(tokens), 200)
        for token in tokens:
            self.assertTrue(token.startswith("api_"))
            self.assertTrue(self.maker.well_formed(token))

    def test_fixed_width_even_for_small_random_values(self):
        maker = TokenMaker("api", random_bytes=lambda n: b"\x00" * n)
        token = maker.issue()
        self.assertEqual(len(token), len(self.maker.issue()))
        self.assertTrue(maker.well_formed(token))

    def test_typos_are_caught(self):
        token = self.maker.issue()
        swapped = token[:6] + ("A" if token[6] != "A" else "B") + token[7:]
        self.assertFalse(self.maker.well_formed(swapped))
        self.assertFalse(self.maker.well_formed(token[:-1]))
        self.assertFalse(self.maker.well_formed("key" + token[3:]))
        self.assertTrue(self.maker.well_formed(f"  {token}\n"))

    def test_fingerprint_and_redaction(self):
        token = self.maker.issue()
        self.assertEqual(len(TokenMaker.fingerprint(token)), 64)
        self.assertEqual(TokenMaker.fingerprint(token), TokenMaker.fingerprint(token + " "))
        self.assertEqual(TokenMaker.redact(token), f"api_…{token[-4:]}")
        self.assertNotIn(token[4:20], TokenMaker.redact(token))

    def test_validation(self):
        with self.assertRaises(ValueError):
            TokenMaker("API")
        with self.assertRaises(ValueError):
            TokenMaker("api", entropy_bytes=8)

    def test_factory(self):
        maker = token_maker_from_settings({"ids": {"prefix": "pat", "entropy_bytes": 32}})
        self.assertTrue(maker.issue().startswith("pat_"))
        self.assertEqual(token_maker_from_settings({}).prefix, "tok")


if __name__ == "__main__":
    unittest.main()
