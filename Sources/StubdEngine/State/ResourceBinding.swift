/// What makes a route a resource's: which resource, and which operation the route performs on it.
package struct ResourceBinding: Sendable {
    package let resource: ResourceDefinition
    package let operation: ResourceOperation
}
