// The Repose demo. For now it only says what is coming; the resource core replaces this with a client for an
// embedded fixture API.
print("repose-demo: the resource core is under construction; this demo will browse an embedded fixture API.")
