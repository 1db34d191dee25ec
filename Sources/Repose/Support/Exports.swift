// Repose users get the signals library with a single `import Repose`.
@_exported import ReposeSignals
