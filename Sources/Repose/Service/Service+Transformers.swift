import Foundation

extension Service {
    /// Adds a content transformer to the pipeline of the resources whose URL matches `pattern`.
    ///
    /// The usual use maps parsed content to app models in the ``PipelineStageKey/model`` stage:
    ///
    /// ```swift
    /// service.configureTransformer("/users/*") { (entity: Entity<[String: Any]>) in
    ///     User(json: entity.content)
    /// }
    /// ```
    ///
    /// By default a second call for the same stage replaces the first for the resources both match (rule F18);
    /// pass `.appendToExisting` to run both. Error responses are left alone unless `transformErrors` is true
    /// (rule F15). See ``ResponseContentTransformer`` for how `nil`, thrown errors and other input types are
    /// handled. For `Decodable` models, ``configureTransformer(_:decoding:decoder:requestMethods:description:)``
    /// decodes straight from the response bytes instead.
    ///
    /// - Parameters:
    ///   - pattern: Which resources: a glob relative to the base URL (`*` within a path segment, `**` across
    ///     segments, `?` one character, query ignored), a regular expression, or a resource.
    ///   - requestMethods: The methods this applies to; all of them by default.
    ///   - stage: The stage to add the transformer to.
    ///   - action: Whether to replace the stage's transformers or append to them.
    ///   - mismatchAction: What to do with content that is not an `Input`.
    ///   - transformErrors: Whether error bodies are transformed too.
    ///   - description: A label for logs.
    ///   - contentTransform: Maps the content. It runs off the main actor.
    public func configureTransformer<Input, Output>(
        _ pattern: any ConfigurationPatternConvertible,
        requestMethods: [RequestMethod]? = nil,
        atStage stage: PipelineStageKey = .model,
        action: PipelineStage.MutationAction = .replaceExisting,
        onInputTypeMismatch mismatchAction: InputTypeMismatchAction = .error,
        transformErrors: Bool = false,
        description: String? = nil,
        contentTransform: @escaping @Sendable (Entity<Input>) throws -> Output?
    ) {
        addTransformer(
            matching: pattern.configurationPattern(for: self), requestMethods: requestMethods, stage: stage,
            action: action,
            description: description ?? "\(Input.self) → \(Output.self) for \(pattern.configurationPatternDescription)",
            transformer: ResponseContentTransformer(
                onInputTypeMismatch: mismatchAction, transformErrors: transformErrors, description: description,
                processor: contentTransform))
    }

    /// Adds a content transformer to the pipeline of every resource; see
    /// ``configureTransformer(_:requestMethods:atStage:action:onInputTypeMismatch:transformErrors:description:contentTransform:)``.
    public func configureTransformer<Input, Output>(
        requestMethods: [RequestMethod]? = nil,
        atStage stage: PipelineStageKey = .model,
        action: PipelineStage.MutationAction = .replaceExisting,
        onInputTypeMismatch mismatchAction: InputTypeMismatchAction = .error,
        transformErrors: Bool = false,
        description: String? = nil,
        contentTransform: @escaping @Sendable (Entity<Input>) throws -> Output?
    ) {
        addTransformer(
            matching: { _ in true }, requestMethods: requestMethods, stage: stage, action: action,
            description: description ?? "\(Input.self) → \(Output.self) for all resources",
            transformer: ResponseContentTransformer(
                onInputTypeMismatch: mismatchAction, transformErrors: transformErrors, description: description,
                processor: contentTransform))
    }

    /// Decodes the resources whose URL matches `pattern` into a `Decodable` model, straight from the response
    /// bytes.
    ///
    /// ```swift
    /// service.configureTransformer("/users/*", decoding: User.self)
    /// let user: User? = service.resource("/users/42").typedContent()
    /// ```
    ///
    /// The decoder takes over the ``PipelineStageKey/parsing`` stage for successful responses, so the JSON
    /// dictionary parse never runs for these resources; error responses still go through the stage's previous
    /// transformers, so `latestError.jsonDict` keeps working. Content that is already a `Model` passes through.
    /// A failure to decode is a ``RequestError`` whose cause is ``RequestError/Cause/ModelDecodingFailed``, naming
    /// the model type and the coding path (`users[2].email`). Later stages, such as ``PipelineStageKey/model``,
    /// receive the model and can map it further.
    ///
    /// - Parameters:
    ///   - pattern: A glob relative to the base URL, a regular expression or a resource; see
    ///     ``configureTransformer(_:requestMethods:atStage:action:onInputTypeMismatch:transformErrors:description:contentTransform:)``.
    ///   - modelType: The model to decode.
    ///   - decoder: The decoder to use, for date and key strategies. It is used from a background thread: do not
    ///     change it afterwards.
    ///   - requestMethods: The methods this applies to; all of them by default.
    ///   - description: A label for logs.
    public func configureTransformer<Model: Decodable>(
        _ pattern: any ConfigurationPatternConvertible,
        decoding modelType: Model.Type,
        decoder: JSONDecoder = JSONDecoder(),
        requestMethods: [RequestMethod]? = nil,
        description: String? = nil
    ) {
        addDecoding(
            modelType, decoder: decoder, matching: pattern.configurationPattern(for: self),
            requestMethods: requestMethods,
            description: description ?? "decode \(Model.self) for \(pattern.configurationPatternDescription)")
    }

    /// Decodes every resource into a `Decodable` model; see
    /// ``configureTransformer(_:decoding:decoder:requestMethods:description:)``.
    public func configureTransformer<Model: Decodable>(
        decoding modelType: Model.Type,
        decoder: JSONDecoder = JSONDecoder(),
        requestMethods: [RequestMethod]? = nil,
        description: String? = nil
    ) {
        addDecoding(
            modelType, decoder: decoder, matching: { _ in true }, requestMethods: requestMethods,
            description: description ?? "decode \(Model.self) for all resources")
    }

    /// Registers a transformer built once, so every resource's configuration shares it.
    private func addTransformer(
        matching: @escaping (URL) -> Bool,
        requestMethods: [RequestMethod]?,
        stage: PipelineStageKey,
        action: PipelineStage.MutationAction,
        description: String,
        transformer: any ResponseTransformer
    ) {
        addConfiguration(matching: matching, requestMethods: requestMethods, description: description) {
            configuration in
            if action == .replaceExisting {
                configuration.pipeline[stage].removeTransformers()
            }
            configuration.pipeline[stage].add(transformer)
        }
    }

    private func addDecoding<Model: Decodable>(
        _ modelType: Model.Type,
        decoder: JSONDecoder,
        matching: @escaping (URL) -> Bool,
        requestMethods: [RequestMethod]?,
        description: String
    ) {
        addConfiguration(matching: matching, requestMethods: requestMethods, description: description) {
            configuration in
            var stage = PipelineStage()
            stage.add(
                ModelDecodingTransformer<Model>(decoder: decoder, errorBodies: configuration.pipeline[.parsing]))
            configuration.pipeline[.parsing] = stage
        }
    }
}
