"""The UECda bridge: our engine as a server of the UEC computer Daifugō tournament's
protocol, and our strategies as its clients (docs/uecda.md)."""
