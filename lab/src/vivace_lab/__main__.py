from vivace_lab.cli import main

raise SystemExit(main())
