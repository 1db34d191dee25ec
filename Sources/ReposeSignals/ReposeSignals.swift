/// ReposeSignals: the in-house operator library (see Docs/SignalsContract.md).
