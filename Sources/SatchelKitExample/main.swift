// The five apps' main actions through SatchelKit, in process (or, given a satchel binary, as a child
// process): swift run satchel-kit-example [path/to/satchel]
import Foundation
import SatchelKit

let arguments = ["--memory", "--user-name", "Ann"]
let satchel = CommandLine.arguments.count > 1
    ? try await Satchel.process(executable: URL(fileURLWithPath: CommandLine.arguments[1]), arguments: arguments)
    : try await Satchel.inProcess(arguments: arguments)
let feed = try await satchel.changes()

// ENotes: a green note due tomorrow, then a second one moved to the top.
let groceries = try await satchel.notes.create(
    title: "Groceries", content: "Milk, eggs", color: ColorInput(hue: 0.33, saturation: 0.4, brightness: 1),
    deadline: .some(Date().addingTimeInterval(86_400)))
let ideas = try await satchel.notes.create(title: "Ideas")
_ = try await satchel.notes.move(id: ideas.id, toIndex: 0)
print("Notes:", try await satchel.notes.list().items.map(\.title), "- \(groceries.color.hex)")

// Reminders: tap to add, type, Return inserts the next; the empty one is cleaned up when editing ends.
let milk = try await satchel.reminders.add(title: "Milk")
let next = try await satchel.reminders.submit(id: milk.reminder.id)
print("Return made an empty reminder:", next.created?.title == "")
_ = try await satchel.reminders.endEditing()
_ = try await satchel.reminders.toggle(id: milk.reminder.id)
print("Reminders:", try await satchel.reminders.list().items.map { "\($0.completed ? "✓" : "○") \($0.title)" })

// Moments: a post; the diary shows it with its date.
let post = try await satchel.diary.create(text: "A walk by the sea")
print("Moments:", post.displayDate, post.text ?? "")

// Messages: send one; the list is newest last.
_ = try await satchel.messages.send(text: "See you at six")
print("Messages:", try await satchel.messages.list().items.map { "\($0.author.name): \($0.text)" })

// Board: a post and a vote.
let board = try await satchel.board.create(title: "Satchel in Swift")
print("Board:", try await satchel.board.vote(id: board.id, direction: "up", voter: "ann").votes, "vote")

// Errors are SatchelError cases with the server's reason and field.
do {
    _ = try await satchel.notes.create(title: String(repeating: "x", count: 501))
} catch {
    if case .validationFailed(let info) = error { print("Refused:", info.reason ?? "", "in", info.field ?? "", "-", info.message) }
}

// Every change above came through the live feed too, the vote last.
var heard = 0
for await change in feed {
    guard case .changed(let event, _) = change else { continue }
    heard += 1
    if event.id == board.id && event.kind == "updated" { break }
}
print("Heard \(heard) changes")
await satchel.close()
