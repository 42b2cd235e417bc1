"""Unit tests of the agent's pure parts (no NVML, no files, no processes): run by
dev.nvidb.agent.AgentPythonUnitTest under the build's python3 and the oldest supported one,
or by hand: python3 -m unittest discover -s src/test/python (NVIDB_AGENT=path to the agent; by
default the script the build joined from remote-agent/src, target/classes/dev/nvidb/agent/nvidb_agent.py:
./mvnw -q generate-resources makes it)."""
import importlib.util
import os
import unittest

AGENT = os.environ.get("NVIDB_AGENT", os.path.join(os.path.dirname(__file__),
                                                   "../../../target/classes/dev/nvidb/agent/nvidb_agent.py"))
spec = importlib.util.spec_from_file_location("nvidb_agent", AGENT)
agent = importlib.util.module_from_spec(spec)
spec.loader.exec_module(agent)  # the agent runs only under __main__


def claim(**changes):
    entry = {"uid": 1001, "user": "alice", "queue": "q1a2b3c4", "queue_name": "laptop", "job": 12, "attempt": 1,
             "gpus": ["GPU-0"], "mib": 16384, "exclusive": False, "pid": 4242, "start_ticks": 99,
             "boot_id": "b", "agent_pid": 4000, "agent_ticks": 98, "created_at": 1.5, "expires_at": None}
    entry.update(changes)
    return entry


class SmiValues(unittest.TestCase):

    def test_brackets_and_not_available_are_no_value(self):
        for text in ("[N/A]", "[Not Supported]", "[Insufficient Permissions]", "N/A", "Not Supported", "", "  "):
            self.assertIsNone(agent.smi_value(text), text)

    def test_numbers_convert_and_bad_ones_are_no_value(self):
        self.assertEqual(81559, agent.smi_value(" 81559 ", int))
        self.assertEqual(71.25, agent.smi_value("71.25", float))
        self.assertIsNone(agent.smi_value("81559 MiB", int))
        self.assertEqual("NVIDIA H100", agent.smi_value(" NVIDIA H100 "))


class LastLines(unittest.TestCase):

    def test_counts_lines_as_tail_does(self):
        self.assertEqual(b"b\nc\n", agent.last_lines(b"a\nb\nc\n", 2, False))
        self.assertEqual(b"b\nc", agent.last_lines(b"a\nb\nc", 2, False))  # a last line without newline counts
        self.assertEqual(b"a\nb\n", agent.last_lines(b"a\nb\n", 5, False))
        self.assertEqual(b"", agent.last_lines(b"a\nb\n", 0, False))

    def test_the_partial_first_line_of_a_cut_end_is_dropped(self):
        self.assertEqual(b"b\nc\n", agent.last_lines(b"ial a\nb\nc\n", 5, True))
        self.assertEqual(b"only part", agent.last_lines(b"only part", 5, True))  # nothing else to show


class ClaimFiles(unittest.TestCase):

    def test_names_carry_uid_queue_job_and_attempt(self):
        self.assertEqual("claim-1001-q1a2b3c4-12-3.json", agent.claim_name(1001, "q1a2b3c4", 12, 3))
        self.assertEqual("demand-1001-q1a2b3c4.json", agent.demand_name(1001, "q1a2b3c4"))

    def test_a_whole_claim_is_valid(self):
        self.assertTrue(agent.valid_claim(claim()))
        self.assertTrue(agent.valid_claim(claim(pid=None, start_ticks=None, boot_id=None)))  # pending

    def test_forged_or_broken_claims_are_not(self):
        for broken in (claim(uid=-1), claim(uid=True), claim(uid="1001"), claim(user=""), claim(user="x" * 257),
                       claim(gpus=[]), claim(gpus=["GPU-%d" % i for i in range(65)]), claim(gpus=[3]),
                       claim(mib=1.5), claim(exclusive="yes"), claim(created_at="now"), claim(expires_at="never")):
            self.assertFalse(agent.valid_claim(broken), broken)
        self.assertFalse(agent.valid_claim([claim()]))
        self.assertFalse(agent.valid_claim(None))

    def test_demand_needs_its_counts_and_times(self):
        demand = {"uid": 1002, "user": "bob", "queue": "q9", "queue_name": None, "waiting": 2, "gpus": 1,
                  "mib": 8192, "exclusive": False, "oldest_at": 10, "updated_at": 11.5}
        self.assertTrue(agent.valid_demand(demand))
        for key, value in (("waiting", -1), ("mib", None), ("oldest_at", None), ("updated_at", "x")):
            broken = dict(demand)
            broken[key] = value
            self.assertFalse(agent.valid_demand(broken), key)


if __name__ == "__main__":
    unittest.main()
