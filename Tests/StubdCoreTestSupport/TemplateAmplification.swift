/// Templates that amplify their request (a list rendered per item, the body echoed 20 times, three
/// nested loops that write nothing), shared by TemplateHardeningTests (through `stubd serve`) and
/// TemplateHardeningAnswerTests (no socket), and a JSON array of `count` numbers to feed them.
public enum TemplateAmplification {
    public static let list = """
        routes:
          - request: { method: POST, path: /list }
            response:
              template: true
              body: "{{#each (jsonPath request.body '$')}}item {{this}} {{/each}}"
          - request: { method: POST, path: /echo }
            response:
              template: true
              body: "\(String(repeating: "{{request.body}}", count: 20))"
          - request: { method: POST, path: /silent }
            response:
              template: true
              body: "{{#each (jsonPath request.body '$')}}{{#each (jsonPath request.body '$')}}{{#each (jsonPath request.body '$')}}{{/each}}{{/each}}{{/each}}"
        """

    public static func numbers(_ count: Int) -> String { "[" + (0..<count).map(String.init).joined(separator: ",") + "]" }
}
