import io
import unittest

from source import CommandError, CommandRouter, cli_from_settings


def make_router():
    out, err = io.StringIO(), io.StringIO()
    router = CommandRouter("tool", "Test tool", stdout=out, stderr=err)

    @router.command("greet", "Say hello", [(("name",), {}), (("--shout",), {"action": "store_true"})])
    def greet(args, stdout):
        text = f"hello {args.name}"
        stdout.write((text.upper() if args.shout else text) + "\n")

    @router.command("fail", "Always fails")
    def fail(args, stdout):
        raise CommandError("nothing to do")

    @router.command("status", "Exit with a code", [(("code",), {"type": int})])
    def status(args, stdout):
        return args.code

    return router, out, err


class CommandRouterTest(unittest.TestCase):
    def test_runs_a_command(self):
        router, out, _ = make_router()
        self.assertEqual(router.run(["greet", "ada", "--shout"]), 0)
        self.assertEqual(out.getvalue(), "HELLO ADA\n")

    def test_handler_status_is_returned(self):
        router, _, _ = make_router()
        self.assertEqual(router.run(["status", "3"]), 3)

    def test_expected_failures_print_without_traceback(self):
        router, _, err = make_router()
        self.assertEqual(router.run(["fail"]), 1)
        self.assertEqual(err.getvalue(), "tool fail: nothing to do\n")

    def test_usage_errors(self):
        router, _, err = make_router()
        self.assertEqual(router.run(["nope"]), 2)
        self.assertIn("invalid choice", err.getvalue())
        self.assertEqual(router.run([]), 2)
        self.assertEqual(router.run(["status", "x"]), 2)

    def test_help_goes_to_stdout(self):
        router, out, _ = make_router()
        self.assertEqual(router.run(["--help"]), 0)
        self.assertIn("greet", out.getvalue())
        self.assertIn("Test tool", out.getvalue())

    def test_duplicate_commands(self):
        router, _, _ = make_router()
        with self.assertRaises(ValueError):
            router.command("greet")(lambda args, out: 0)

    def test_factory(self):
        router = cli_from_settings({"cli": {"program": "ops"}})
        self.assertEqual((router.program, router.description), ("ops", "Operational commands"))
        self.assertEqual(cli_from_settings({}).program, "app")


if __name__ == "__main__":
    unittest.main()
