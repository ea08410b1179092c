package sandbox

import (
	"context"
	"fmt"
	"sort"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Lesson is one lesson in one language, as the sandbox offers it over MCP:
// what the learner reads on /learn, for an agent or the Inspector to read
// with resources/read.
type Lesson struct {
	Topic, Lang    string
	Title, Summary string
	Markdown       string
}

// LessonURI is the resource URI of a lesson in a language.
func LessonURI(topic, lang string) string { return fmt.Sprintf("examsim://lessons/%s/%s", topic, lang) }

// AddLessons offers each lesson as a text/markdown resource, one per
// language (resources/list, resources/read). Adding a lesson again
// replaces it.
func (sb *Sandbox) AddLessons(lessons []Lesson) {
	sort.Slice(lessons, func(i, j int) bool {
		if lessons[i].Topic != lessons[j].Topic {
			return lessons[i].Topic < lessons[j].Topic
		}
		return lessons[i].Lang < lessons[j].Lang
	})
	for _, l := range lessons {
		uri := LessonURI(l.Topic, l.Lang)
		text := "# " + l.Title + "\n\n" + l.Summary + "\n\n" + l.Markdown
		sb.server.AddResource(&mcp.Resource{
			URI: uri, Name: l.Topic + "." + l.Lang, Title: l.Title, Description: l.Summary,
			MIMEType: "text/markdown", Size: int64(len(text)),
		}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: text}}}, nil
		})
	}
}
