/// ReposeTesting: test doubles for code that uses Repose.
