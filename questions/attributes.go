package questions

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// onlyIDAttributes drops every Markdown attribute but id. The bank needs
// {#concept-id} anchors and nothing else; a {style=…} or {class=…} would
// let a bank file restyle or disguise the page it is shown on (goldmark
// already refuses on… handlers).
type onlyIDAttributes struct{}

func (onlyIDAttributes) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || n.Attributes() == nil {
			return ast.WalkContinue, nil
		}
		id, hasID := n.AttributeString("id")
		n.RemoveAttributes()
		if hasID {
			n.SetAttributeString("id", id)
		}
		return ast.WalkContinue, nil
	})
}
