"""The example Scrapy project crawling the scrapy-wrapx demo bookstore."""
