// The helpers that need nothing of the server (temporary Stubs folders, child processes, the test Python,
// the repository's paths) live in StubdCoreTestSupport, so that StubdCoreTests link StubdCore alone;
// re-exported here so a server test's `import StubdTestSupport` still brings them.
@_exported public import StubdCoreTestSupport
