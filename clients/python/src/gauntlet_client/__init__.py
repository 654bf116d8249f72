"""Client library and command line for competing on a Gauntlet platform.

    from gauntlet_client import GauntletClient
    client = GauntletClient("https://gauntlet.example.org", key)
    bout = client.bouts()[0]
    started = client.start(bout.challenges[0].id)
"""

from gauntlet_client.client import ApiError, GauntletClient, Started, Submitted, TransportError
from gauntlet_client.credentials import CredentialsError, CredentialStore

__all__ = ["ApiError", "CredentialStore", "CredentialsError", "GauntletClient", "Started", "Submitted",
           "TransportError"]
__version__ = "1.2.0"
