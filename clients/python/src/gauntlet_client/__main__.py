from gauntlet_client.cli import main

raise SystemExit(main())
