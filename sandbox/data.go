package sandbox

// The sandbox's made-up data. Nothing here is real and nothing is ever
// written: every tool reads these tables and keeps only per-session counters
// in memory.

type customer struct {
	ID      string `json:"customer_id"`
	Name    string `json:"name"`
	Email   string `json:"email"`
	Country string `json:"country"`
	Since   string `json:"customer_since"`
}

var customers = []customer{
	{ID: "C-1042", Name: "Anna Nowak", Email: "a.nowak@example.com", Country: "PL", Since: "2021-03-14"},
	{ID: "C-2077", Name: "Minh Tran", Email: "minh.tran@example.com", Country: "VN", Since: "2022-11-02"},
	{ID: "C-3310", Name: "Somchai Prasert", Email: "somchai.p@example.com", Country: "TH", Since: "2023-06-20"},
	{ID: "C-4501", Name: "Jo Lee", Email: "jo.lee@slow.example", Country: "GB", Since: "2020-01-09"},
	{ID: "C-5120", Name: "Sam Ng", Email: "sam.ng@flaky.example", Country: "GB", Since: "2022-08-30"},
	{ID: "C-6033", Name: "Pat Kim", Email: "pat.kim@down.example", Country: "GB", Since: "2019-05-12"},
}

type order struct {
	ID         string  `json:"order_id"`
	CustomerID string  `json:"customer_id"`
	TotalGBP   float64 `json:"total_gbp"`
	Status     string  `json:"status"`
	Placed     string  `json:"placed_on"`
}

var orders = []order{
	{ID: "#12345", CustomerID: "C-1042", TotalGBP: 750, Status: "delivered", Placed: "2024-03-02"},
	{ID: "#48213", CustomerID: "C-2077", TotalGBP: 89.99, Status: "shipped", Placed: "2024-05-17"},
	{ID: "#30517", CustomerID: "C-3310", TotalGBP: 120, Status: "delivered", Placed: "2024-04-08"},
}

type invoice struct {
	InvoiceID string  `json:"invoice_id"`
	Date      string  `json:"date"`
	AmountGBP float64 `json:"amount_gbp"`
	Status    string  `json:"status"`
}

var financialRecords = map[string][]invoice{
	"C-1042": {{InvoiceID: "INV-2024-0311", Date: "2024-03-02", AmountGBP: 750, Status: "paid"}, {InvoiceID: "INV-2024-0159", Date: "2024-01-20", AmountGBP: 42.5, Status: "paid"}},
	"C-2077": {{InvoiceID: "INV-2024-0517", Date: "2024-05-17", AmountGBP: 89.99, Status: "paid"}},
	"C-3310": {{InvoiceID: "INV-2024-0408", Date: "2024-04-08", AmountGBP: 120, Status: "overdue"}},
	"C-4501": {},
}

type source struct {
	Source int    `json:"source"`
	Title  string `json:"title"`
	URL    string `json:"url"`
}

// sourceTitles is the canned news corpus search_sources answers from,
// whatever the query.
var sourceTitles = []string{
	"Battery passport rules explained",
	"Recycled content targets for 2030",
	"What the regulation means for importers",
	"Carbon footprint declarations",
	"Due diligence for cobalt and lithium",
	"Timeline of the new obligations",
	"Collection targets for portable batteries",
	"Labelling and QR codes on battery packs",
	"How the rules treat e-bike batteries",
	"Penalties and market surveillance",
}

func findCustomer(email string) (customer, bool) {
	for _, c := range customers {
		if c.Email == email {
			return c, true
		}
	}
	return customer{}, false
}

func findOrder(id string) (order, bool) {
	for _, o := range orders {
		if o.ID == id {
			return o, true
		}
	}
	return order{}, false
}
